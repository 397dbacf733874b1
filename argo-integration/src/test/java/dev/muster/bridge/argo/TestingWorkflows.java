package dev.muster.bridge.argo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Workflows as the real Argo v4.0.5 controller left them after running, in {@code src/test/resources/workflows/}
 * (see the README there), and copies with a template's annotations changed, to read bad input on a real status.
 */
final class TestingWorkflows {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private TestingWorkflows() {}

    static ObjectNode load(String name) {
        try (InputStream in = TestingWorkflows.class.getResourceAsStream("/workflows/" + name + ".yaml")) {
            if (in == null) {
                throw new IllegalArgumentException("no workflow " + name + " in /workflows/");
            }
            return (ObjectNode) YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Workflow read(String name) {
        return read(load(name));
    }

    static Workflow read(JsonNode object) {
        WorkflowReader.Result result = WorkflowReader.read(object);
        if (result.workflow().isEmpty()) {
            throw new AssertionError("cannot read workflow: " + result.problems());
        }
        return result.workflow().get();
    }

    /** The workflow with a second Pod node, {@code attempt}, under the Retry node {@code retry} (as Argo makes a retry). */
    static ObjectNode withSecondAttempt(String name, String retry, String attempt) {
        ObjectNode workflow = load(name);
        ObjectNode nodes = (ObjectNode) workflow.path("status").path("nodes");
        ObjectNode retried = (ObjectNode) nodes.path(retry);
        String first = retried.path("children").get(0).asText();
        ObjectNode second = nodes.path(first).deepCopy();
        second.put("id", attempt);
        second.put("name", second.path("name").asText().replace("(0)", "(1)"));
        nodes.set(attempt, second);
        retried.withArray("children").add(attempt);
        return workflow;
    }

    /** The workflow with the template's pod annotations replaced by {@code annotations}. */
    static ObjectNode withAnnotations(String name, String template, Map<String, String> annotations) {
        ObjectNode workflow = load(name);
        for (JsonNode each : workflow.path("spec").path("templates")) {
            if (each.path("name").asText().equals(template)) {
                ObjectNode metadata = ((ObjectNode) each).putObject("metadata");
                ObjectNode values = metadata.putObject("annotations");
                annotations.forEach(values::put);
                return workflow;
            }
        }
        throw new IllegalArgumentException("workflow " + name + " has no template " + template);
    }
}
