package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every field {@link WorkflowReader} reads exists in Argo v4.0.5's full Workflow CRD with the type the
 * reader expects, so a renamed or retyped field fails here rather than in a cluster.
 */
class WorkflowSchemaTest {
    private static JsonNode schema;

    @BeforeAll
    static void loadSchema() throws IOException {
        try (InputStream in = WorkflowSchemaTest.class.getResourceAsStream("/argo-crds/argoproj.io_workflows.yaml")) {
            JsonNode crd = new ObjectMapper(new YAMLFactory()).readTree(in);
            schema = crd.path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema");
        }
    }

    static Stream<Arguments> fieldsTheReaderReads() {
        return Stream.of(
                Arguments.of("spec.templates[].name", "string"),
                Arguments.of("spec.templates[].metadata.annotations.*", "string"),
                Arguments.of("status.nodes.*.id", "string"),
                Arguments.of("status.nodes.*.name", "string"),
                Arguments.of("status.nodes.*.type", "string"),
                Arguments.of("status.nodes.*.templateName", "string"),
                Arguments.of("status.nodes.*.phase", "string"),
                Arguments.of("status.nodes.*.children[]", "string"),
                Arguments.of("status.compressedNodes", "string"),
                Arguments.of("status.offloadNodeStatusVersion", "string"));
    }

    @ParameterizedTest(name = "{0} is a {1}")
    @MethodSource("fieldsTheReaderReads")
    void theReadersFieldsAreArgosFields(String path, String type) {
        assertThat(at(path).path("type").asText()).as(path).isEqualTo(type);
    }

    @Test
    void theStoredWorkflowTemplateSpecIsLeftUnvalidated() {
        // its Go type is a WorkflowSpec (workflow_types.go: StoredWorkflowSpec *WorkflowSpec), so the
        // reader reads its templates as those of spec.templates; the CRD does not describe it
        JsonNode stored = at("status.storedWorkflowTemplateSpec");
        assertThat(stored.path("type").asText()).isEqualTo("object");
        assertThat(stored.path("x-kubernetes-preserve-unknown-fields").asBoolean()).isTrue();
        assertThat(stored.path("properties").isMissingNode()).isTrue();
    }

    @Test
    void argoRequiresANodesIdNameAndType() {
        assertThat(at("status.nodes.*").path("required")).extracting(JsonNode::asText).containsExactlyInAnyOrder("id", "name", "type");
    }

    @Test
    void aMissingFieldIsNotFound() {
        assertThat(at("status.nodes.*.templateNme").isMissingNode()).isTrue();
    }

    /** {@code a.b} a property, {@code []} an array's items, {@code *} a map's values. */
    private static JsonNode at(String path) {
        JsonNode node = schema;
        for (String part : path.split("\\.")) {
            boolean items = part.endsWith("[]");
            String name = items ? part.substring(0, part.length() - 2) : part;
            node = name.equals("*") ? node.path("additionalProperties") : node.path("properties").path(name);
            if (items) {
                node = node.path("items");
            }
        }
        return node;
    }
}
