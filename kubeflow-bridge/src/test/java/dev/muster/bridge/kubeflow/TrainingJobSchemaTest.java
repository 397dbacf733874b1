package dev.muster.bridge.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every field {@link TrainingJobReader} reads exists in the training operator's CRDs that the bridge
 * carries, with the type the reader expects, so a renamed or retyped field fails here rather than in a
 * cluster; and those CRDs are the two kinds {@link TrainingKind} names.
 */
class TrainingJobSchemaTest {
    private static final List<JsonNode> CRDS = new ArrayList<>();

    @BeforeAll
    static void load() throws IOException {
        try (InputStream in = KubeflowApi.class.getResourceAsStream(KubeflowApi.CRDS)) {
            TestingJobs.YAML.readValues(TestingJobs.YAML.createParser(in), JsonNode.class).forEachRemaining(crd -> {
                if (!crd.isNull() && !crd.isMissingNode()) {
                    CRDS.add(crd);
                }
            });
        }
    }

    @Test
    void theBridgeCarriesTheTfJobAndPyTorchJobCrds() {
        assertThat(CRDS).extracting(crd -> crd.path("metadata").path("name").asText())
                .containsExactly("tfjobs.kubeflow.org", "pytorchjobs.kubeflow.org");
        for (TrainingKind kind : TrainingKind.values()) {
            JsonNode crd = crd(kind);
            assertThat(crd.path("spec").path("group").asText()).isEqualTo(KubeflowApi.GROUP);
            assertThat(crd.path("spec").path("names").path("plural").asText()).isEqualTo(kind.plural());
            assertThat(crd.path("spec").path("versions").get(0).path("name").asText()).isEqualTo(KubeflowApi.VERSION);
        }
    }

    static Stream<Arguments> fieldsTheReaderReads() {
        List<Arguments> fields = new ArrayList<>();
        for (TrainingKind kind : TrainingKind.values()) {
            String specs = "spec." + kind.replicaSpecsField();
            fields.add(Arguments.of(kind, specs + ".*.replicas", "integer"));
            fields.add(Arguments.of(kind, "spec.runPolicy.suspend", "boolean"));
            fields.add(Arguments.of(kind, "spec.runPolicy.schedulingPolicy.minAvailable", "integer"));
            fields.add(Arguments.of(kind, "spec.runPolicy.schedulingPolicy.queue", "string"));
            fields.add(Arguments.of(kind, "spec.runPolicy.schedulingPolicy.priorityClass", "string"));
            fields.add(Arguments.of(kind, "spec.runPolicy.schedulingPolicy.scheduleTimeoutSeconds", "integer"));
            fields.add(Arguments.of(kind, "status.conditions[].type", "string"));
            fields.add(Arguments.of(kind, "status.conditions[].status", "string"));
            fields.add(Arguments.of(kind, "status.conditions[].message", "string"));
            fields.add(Arguments.of(kind, "status.conditions[].lastTransitionTime", "string"));
        }
        fields.add(Arguments.of(TrainingKind.PYTORCHJOB, "spec.elasticPolicy.minReplicas", "integer"));
        fields.add(Arguments.of(TrainingKind.PYTORCHJOB, "spec.elasticPolicy.maxReplicas", "integer"));
        return fields.stream();
    }

    @ParameterizedTest(name = "{0} {1} is a {2}")
    @MethodSource("fieldsTheReaderReads")
    void theReadersFieldsAreTheOperatorsFields(TrainingKind kind, String path, String type) {
        assertThat(at(crd(kind), path).path("type").asText()).as(path).isEqualTo(type);
    }

    @Test
    void theCrdsLeaveReplicasUnboundedAndReplicaTypesOpen() {
        // so negative replicas and unknown replica types reach the cluster, and the bridge must catch them
        JsonNode replicas = at(crd(TrainingKind.TFJOB), "spec.tfReplicaSpecs.*.replicas");
        assertThat(replicas.has("minimum")).isFalse();
        assertThat(at(crd(TrainingKind.TFJOB), "spec.tfReplicaSpecs").path("additionalProperties").isObject()).isTrue();
        assertThat(at(crd(TrainingKind.TFJOB), "spec.tfReplicaSpecs").has("properties")).isFalse();
    }

    @Test
    void aMissingFieldIsNotFound() {
        assertThat(at(crd(TrainingKind.TFJOB), "spec.runPolicy.schedulingPolicy.queueName").isMissingNode()).isTrue();
    }

    private static JsonNode crd(TrainingKind kind) {
        return CRDS.stream().filter(crd -> crd.path("spec").path("names").path("kind").asText().equals(kind.kind())).findFirst()
                .orElseThrow();
    }

    /** {@code a.b} a property, {@code []} an array's items, {@code *} a map's values. */
    private static JsonNode at(JsonNode crd, String path) {
        JsonNode node = crd.path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema");
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
