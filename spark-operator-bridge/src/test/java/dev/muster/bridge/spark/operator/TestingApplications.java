package dev.muster.bridge.spark.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The spark-operator v2.5.2 examples of {@code src/test/resources/examples}, read as users submit them. */
final class TestingApplications {
    static final String SPARK_PI = "spark-pi.yaml";
    static final String SPARK_PI_VOLCANO = "spark-pi-volcano.yaml";
    static final String SPARK_PI_DYNAMIC_ALLOCATION = "spark-pi-dynamic-allocation.yaml";
    static final String SPARK_PI_KUBE_SCHEDULER = "spark-pi-kube-scheduler.yaml";
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private TestingApplications() {}

    /** A fresh copy of an example, which a test may change. */
    static ObjectNode example(String file) {
        try (InputStream in = TestingApplications.class.getResourceAsStream("/examples/" + file)) {
            if (in == null) {
                throw new IllegalArgumentException("no example " + file);
            }
            return (ObjectNode) YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An example in a namespace, with a uid as the API server gives it. */
    static ObjectNode example(String file, String namespace, String uid) {
        ObjectNode application = example(file);
        ((ObjectNode) application.path("metadata")).put("namespace", namespace).put("uid", uid);
        return application;
    }

    static ObjectNode spec(ObjectNode application) {
        return (ObjectNode) application.path("spec");
    }
}
