package dev.muster.bridge.argo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Argo's own example workflows at v4.0.5, in {@code src/test/resources/argo-examples/} (see the README there). */
final class TestingExamples {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private TestingExamples() {}

    static ObjectNode load(String name) {
        try (InputStream in = TestingExamples.class.getResourceAsStream("/argo-examples/" + name + ".yaml")) {
            if (in == null) {
                throw new IllegalArgumentException("no example " + name + " in /argo-examples/");
            }
            return (ObjectNode) YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static TemplateReader.Result templates(String name) {
        return TemplateReader.read(load(name));
    }

    /** The {@code depends} of a DAG task of the example, as written. */
    static String depends(String name, String template, String task) {
        for (JsonNode each : load(name).path("spec").path("templates")) {
            if (each.path("name").asText().equals(template)) {
                for (JsonNode dagTask : each.path("dag").path("tasks")) {
                    if (dagTask.path("name").asText().equals(task)) {
                        return dagTask.path("depends").asText();
                    }
                }
            }
        }
        throw new IllegalArgumentException("example " + name + " has no task " + template + "." + task);
    }
}
