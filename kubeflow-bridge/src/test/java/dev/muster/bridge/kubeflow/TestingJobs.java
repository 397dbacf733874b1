package dev.muster.bridge.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.muster.runtime.controller.CustomResourceDefinitions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The training operator's examples of {@code src/test/resources/examples}, read as users submit them. */
final class TestingJobs {
    static final String TF_DIST_MNIST = "tf-dist-mnist.yaml";
    static final String PYTORCH_MNIST_NCCL = "pytorch-mnist-nccl.yaml";
    static final String PYTORCH_ELASTIC_ECHO = "pytorch-elastic-echo.yaml";
    static final String PYTORCH_CPU_DEMO = "pytorch-cpu-demo.yaml";
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** The TFJob and PyTorchJob CRDs the bridge ships, for a test API server to serve. */
    static final CustomResourceDefinitions CRDS = new CustomResourceDefinitions(KubeflowBridgeModule.class, KubeflowApi.CRDS);

    private TestingJobs() {}

    /** A fresh copy of an example, which a test may change. */
    static ObjectNode example(String file) {
        try (InputStream in = TestingJobs.class.getResourceAsStream("/examples/" + file)) {
            if (in == null) {
                throw new IllegalArgumentException("no example " + file);
            }
            return (ObjectNode) YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An example under another name in a namespace, as a test submits it. */
    static ObjectNode example(String file, String namespace, String name) {
        ObjectNode job = example(file);
        ((ObjectNode) job.path("metadata")).put("name", name).put("namespace", namespace);
        return job;
    }

    static TrainingKind kindOf(JsonNode job) {
        return TrainingKind.ofKind(job.path("kind").asText()).orElseThrow();
    }

    /** {@code spec.runPolicy.schedulingPolicy}, made if absent. */
    static ObjectNode schedulingPolicy(ObjectNode job) {
        return ((ObjectNode) job.path("spec")).with("runPolicy").with("schedulingPolicy");
    }

    /** The replica spec of a type, e.g. {@code Worker}. */
    static ObjectNode replicaSpec(ObjectNode job, String type) {
        return ((ObjectNode) job.path("spec").path(kindOf(job).replicaSpecsField())).with(type);
    }
}
