package dev.muster.engine.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.engine.cache.ManifestProblem.Severity;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Queue;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Formats, files and the shape of problems; the mapping of each kind is in the other ManifestReader tests. */
class ManifestReaderTest {
    private static final ManifestReader READER = new ManifestReader(Set.of("volcano"));

    static String node(String name) {
        return """
                apiVersion: v1
                kind: Node
                metadata:
                  name: %s
                status:
                  allocatable: {cpu: "4", memory: 8Gi}
                """.formatted(name);
    }

    static List<String> describe(ManifestResult result) {
        return result.problems().stream().map(ManifestProblem::describe).toList();
    }

    @Test
    void readsMultiDocumentYamlCountingEmptyDocuments() {
        ManifestResult result = READER.read("cluster.yaml", "---\n" + node("n1") + "---\n---\n" + node("n2") + "---\nkind: Node\n");

        assertThat(result.snapshot().nodes().keySet()).containsExactly(new NodeName("n1"), new NodeName("n2"));
        assertThat(describe(result)).containsExactly("cluster.yaml[3] Node: apiVersion: is missing");
    }

    @Test
    void readsJson() {
        String json = """
                {"apiVersion": "v1", "kind": "List", "items": [
                  {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}},
                  {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n2"}}
                ]}
                """;

        ManifestResult result = READER.read("dump.json", json);

        assertThat(result.problems()).isEmpty();
        assertThat(result.snapshot().nodes()).containsOnlyKeys(new NodeName("n1"), new NodeName("n2"));
    }

    @Test
    void reportsListItemsByIndex() {
        String yaml = """
                apiVersion: v1
                kind: List
                items:
                  - apiVersion: v1
                    kind: Node
                    metadata: {name: n1}
                  - apiVersion: v1
                    kind: Node
                    metadata: {namespace: x}
                """;

        ManifestResult result = READER.read("dump.yaml", yaml);

        assertThat(result.snapshot().nodes()).containsOnlyKeys(new NodeName("n1"));
        assertThat(describe(result)).containsExactly("dump.yaml[0].items[1] Node: metadata.name: is missing");
        assertThat(result.problems().get(0).item()).hasValue(1);
    }

    @Test
    void typedListsGiveTheirItemsAKind() {
        String yaml = """
                apiVersion: v1
                kind: NodeList
                items:
                  - metadata: {name: n1}
                """;

        ManifestResult result = READER.read("nodes.yaml", yaml);

        assertThat(result.problems()).isEmpty();
        assertThat(result.snapshot().nodes()).containsOnlyKeys(new NodeName("n1"));
    }

    @Test
    void reportsDocumentsWithoutAHeader() {
        String yaml = """
                - a list
                ---
                just text
                ---
                apiVersion: v1
                metadata: {name: x}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {namespace: ml}
                """;

        ManifestResult result = READER.read("cluster.yaml", yaml);

        assertThat(describe(result)).containsExactly(
                "cluster.yaml[0]: the document is a list, not a mapping",
                "cluster.yaml[1]: the document is 'just text', not a mapping",
                "cluster.yaml[2] x: kind: is missing",
                "cluster.yaml[3] Pod: metadata.name: is missing");
        assertThat(result.problems()).extracting(ManifestProblem::severity).containsOnly(Severity.ERROR);
    }

    @Test
    void unknownKindsAreSkippedWithAWarning() {
        String yaml = """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: settings, namespace: ml}
                ---
                apiVersion: scheduling.volcano.sh/v1alpha1
                kind: Queue
                metadata: {name: old}
                """;

        ManifestResult result = READER.read("cluster.yaml", yaml);

        assertThat(describe(result)).containsExactly(
                "cluster.yaml[0] ConfigMap ml/settings: unknown kind v1 ConfigMap; ignored",
                "cluster.yaml[1] Queue old: apiVersion scheduling.volcano.sh/v1alpha1 of Queue is not supported "
                        + "(supported: scheduling.volcano.sh/v1beta1); ignored");
        assertThat(result.problems()).extracting(ManifestProblem::severity).containsOnly(Severity.WARNING);
        assertThat(result.errors()).isEmpty();
    }

    @Test
    void aKindThatAnotherReaderTakesIsSkippedWithoutAWarningAndOnlyThatKind() {
        String yaml = """
                apiVersion: argoproj.io/v1alpha1
                kind: Workflow
                metadata: {name: pipeline, namespace: ml}
                ---
                apiVersion: argoproj.io/v1alpha1
                kind: WorkflowTemplate
                metadata: {name: template, namespace: ml}
                """;

        ManifestResult result = READER.readElsewhere("argoproj.io/v1alpha1", "Workflow").read("cluster.yaml", yaml);

        assertThat(describe(result)).containsExactly(
                "cluster.yaml[1] WorkflowTemplate ml/template: unknown kind argoproj.io/v1alpha1 WorkflowTemplate; ignored");
        assertThat(describe(READER.read("cluster.yaml", yaml))).hasSize(2);
    }

    @Test
    void keepsTheFirstOfTwoObjectsWithTheSameName() {
        String yaml = node("n1") + "---\n" + node("n1").replace("\"4\"", "\"8\"");

        ManifestResult result = READER.read("cluster.yaml", yaml);

        assertThat(result.snapshot().nodes().get(new NodeName("n1")).allocatable().milliCpu()).isEqualTo(4000);
        assertThat(describe(result)).containsExactly("cluster.yaml[1] Node n1: already defined at cluster.yaml[0]; this one is ignored");
    }

    @Test
    void bothPodGroupKindsShareNames() {
        String yaml = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: pg, namespace: ml}
                ---
                apiVersion: scheduling.x-k8s.io/v1alpha1
                kind: PodGroup
                metadata: {name: pg, namespace: ml}
                """;

        ManifestResult result = READER.read("cluster.yaml", yaml);

        assertThat(result.snapshot().jobs()).containsOnlyKeys(new JobId("ml", "pg"));
        assertThat(describe(result)).contains("cluster.yaml[1] PodGroup ml/pg: already defined at cluster.yaml[0]; this one is ignored");
    }

    @Test
    void aSyntaxErrorCostsOnlyItsDocument() {
        ManifestResult yaml = READER.read("broken.yaml", node("n1") + "---\nmetadata: [unclosed\n---\n" + node("n2"));
        ManifestResult json = READER.read("broken.json", "{\"kind\": ");

        assertThat(yaml.snapshot().nodes()).containsOnlyKeys(new NodeName("n1"), new NodeName("n2"));
        assertThat(describe(yaml)).singleElement().asString().startsWith("broken.yaml[1]: line 9, column 1: ").contains("not valid YAML");
        assertThat(describe(json)).containsExactly(
                "broken.json[0]: line 1, column 10: the JSON ends inside a value (is the file cut short?); the rest of the file is ignored");
    }

    @Test
    void readsFoldersRecursivelyInPathOrder(@TempDir Path folder) throws IOException {
        Files.createDirectories(folder.resolve("a"));
        Files.writeString(folder.resolve("b.yaml"), node("n1").replace("\"4\"", "\"2\""));
        Files.writeString(folder.resolve("a/z.yml"), node("n1"));
        Files.writeString(folder.resolve("c.json"), "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"n3\"}}");
        Files.writeString(folder.resolve("notes.txt"), "not a manifest: [");

        ManifestResult result = READER.read(List.of(folder));

        // a/z.yml sorts before b.yaml, so its n1 is the one kept
        assertThat(result.snapshot().nodes()).containsOnlyKeys(new NodeName("n1"), new NodeName("n3"));
        assertThat(result.snapshot().nodes().get(new NodeName("n1")).allocatable().milliCpu()).isEqualTo(4000);
        assertThat(describe(result)).containsExactly(
                folder.resolve("b.yaml") + "[0] Node n1: already defined at " + folder.resolve("a/z.yml") + "[0]; this one is ignored");
    }

    @Test
    void readsAFileOnceAndFailsOnAMissingOne(@TempDir Path folder) throws IOException {
        Path file = Files.writeString(folder.resolve("nodes.yaml"), node("n1"));

        assertThat(READER.read(List.of(file, folder)).problems()).isEmpty();
        assertThatThrownBy(() -> READER.read(List.of(folder.resolve("missing.yaml"))))
                .isInstanceOf(ManifestException.class)
                .hasMessageEndingWith("missing.yaml: no such file or folder");
    }

    @Test
    void problemsAreSortedByWhereTheyAre() {
        String yaml = """
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: ml}
                spec:
                  schedulerName: volcano
                  containers: [{resources: {requests: {cpu: "-1"}}}]
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: n1}
                status: {allocatable: {memory: lots}}
                """;

        ManifestResult result = READER.read("cluster.yaml", yaml);

        assertThat(describe(result)).containsExactly(
                "cluster.yaml[0] Pod ml/p: spec.containers[0].resources.requests.cpu: '-1' is negative",
                "cluster.yaml[1] Node n1: status.allocatable.memory: 'lots' is not a Kubernetes quantity");
    }

    @Test
    void anEmptyReadHasTheDefaultQueueOnly() {
        ManifestResult result = READER.read(List.of());

        assertThat(result.problems()).isEmpty();
        assertThat(result.snapshot().queues()).containsOnlyKeys(Queue.DEFAULT);
        assertThat(result.snapshot().jobs()).isEmpty();
    }

    static Stream<Arguments> conformanceClusters() {
        return Stream.of(
                Arguments.of("network-topology-highest-tier-name.yaml", 4, 1, 2),
                Arguments.of("capacity-hierarchy-scalar-deserved.yaml", 1, 3, 5),
                Arguments.of("preempt-priority-classes.yaml", 1, 2, 2),
                Arguments.of("preempt-preemptable-false.yaml", 1, 2, 2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("conformanceClusters")
    void conformanceClustersReadWithoutErrors(String fixture, int nodes, int jobs, int queues) throws URISyntaxException {
        Path file = Path.of(ManifestReaderTest.class.getResource("/manifests/" + fixture).toURI());

        ManifestResult result = READER.read(List.of(file));

        assertThat(result.errors()).isEmpty();
        assertThat(result.snapshot().nodes()).hasSize(nodes);
        assertThat(result.snapshot().jobs()).hasSize(jobs);
        assertThat(result.snapshot().queues()).hasSize(queues);
        assertThat(result.snapshot().jobs().values()).allSatisfy(job -> assertThat(job.problems()).isEmpty());
    }
}
