package dev.muster.engine.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.TaskId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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

/**
 * Issue 16's contract: a bad object is reported with file, document, kind, name, field and value, is
 * left out, and the rest is still read; no library's text in any message.
 */
class ManifestReaderBadInputTest {
    private static final ManifestReader READER = new ManifestReader(Set.of("muster"));
    private static final String NODE = ManifestReaderTest.node("n1");

    private static String pod(String name, String cpu) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: ml}
                spec:
                  schedulerName: muster
                  containers: [{name: main, resources: {requests: {cpu: %s}}}]
                """.formatted(name, cpu);
    }

    private static List<String> describe(ManifestResult result) {
        return ManifestReaderTest.describe(result);
    }

    private static boolean read(ManifestResult result, String pod) {
        TaskId task = new TaskId("ml", pod);
        return result.snapshot().jobs().values().stream().anyMatch(job -> job.tasks().stream().anyMatch(t -> t.id().equals(task)));
    }

    @Test
    void aliasedRequestsAndLimitsAreRead() {
        String pod = """
                apiVersion: v1
                kind: Pod
                metadata: {name: aliased, namespace: ml}
                spec:
                  schedulerName: muster
                  containers:
                  - name: main
                    resources:
                      requests: &req {cpu: "1"}
                      limits: *req
                """;

        ManifestResult result = READER.read("cluster.yaml", NODE + "---\n" + pod);

        assertThat(result.problems()).isEmpty();
        assertThat(read(result, "aliased")).isTrue();
    }

    static Stream<Arguments> notQuantities() {
        return Stream.of(
                Arguments.of(".inf"), Arguments.of("-.inf"), Arguments.of(".nan"), Arguments.of("\"Infinity\""), Arguments.of("\"NaN\""),
                Arguments.of("\" 1\""), Arguments.of("\"1.2.3\""), Arguments.of("\"1e\""), Arguments.of("\"1e99999999999\""),
                Arguments.of("true"));
    }

    @ParameterizedTest(name = "cpu: {0}")
    @MethodSource("notQuantities")
    void aValueThatIsNotAQuantityCostsOnlyItsPod(String cpu) {
        ManifestResult result = READER.read("cluster.yaml", NODE + "---\n" + pod("bad", cpu) + "---\n" + pod("good", "\"1\""));

        String written = cpu.replace("\"", "");
        assertThat(describe(result)).containsExactly(
                "cluster.yaml[1] Pod ml/bad: spec.containers[0].resources.requests.cpu: '" + written + "' is not a Kubernetes quantity");
        assertThat(read(result, "good")).isTrue();
        assertThat(read(result, "bad")).isFalse();
        assertThat(result.snapshot().nodes()).containsKey(new NodeName("n1"));
    }

    @Test
    void aHugeQuantityIsCappedAsKubernetesCapsIt() {
        ManifestResult result = READER.read("cluster.yaml", pod("huge", "\"1e2000000000\""));

        assertThat(result.problems()).isEmpty();
        assertThat(read(result, "huge")).isTrue();
    }

    @Test
    void aLatin1ByteCostsOnlyItsDocument(@TempDir Path folder) throws IOException {
        String latin1 = NODE.replace("metadata:\n  name: n1", "metadata:\n  name: n2\n  labels: {zone: caf\u00e9}");
        Path file = folder.resolve("cluster.yaml");
        Files.write(file, (NODE + "---\n" + latin1 + "---\n" + pod("good", "\"1\"")).getBytes(StandardCharsets.ISO_8859_1));

        ManifestResult result = READER.read(List.of(file));

        assertThat(describe(result)).containsExactly(file + "[1] Node n2: line 12, column 21: not UTF-8: byte 0xE9 does not begin a "
                + "character; the document is ignored");
        assertThat(result.snapshot().nodes()).containsOnlyKeys(new NodeName("n1"));
        assertThat(read(result, "good")).isTrue();
    }

    @Test
    void aBinaryFileInAFolderIsReportedAndTheOtherFilesRead(@TempDir Path folder) throws IOException {
        Files.write(folder.resolve("a-binary.yaml"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2, (byte) 0x80});
        Files.writeString(folder.resolve("b-nodes.yaml"), NODE);

        ManifestResult result = READER.read(List.of(folder));

        assertThat(describe(result)).singleElement().asString().startsWith(folder.resolve("a-binary.yaml") + "[0]: line 1, column 1: not UTF-8");
        assertThat(result.snapshot().nodes()).containsOnlyKeys(new NodeName("n1"));
    }

    @Test
    void aSyntaxErrorCostsOnlyItsDocument() {
        ManifestResult result = READER.read("cluster.yaml", NODE + "---\n" + pod("broken", "[unclosed") + "---\n" + pod("good", "\"1\""));

        assertThat(describe(result)).singleElement().asString()
                .startsWith("cluster.yaml[1] Pod ml/broken: line 13, column ")
                .contains("not valid YAML");
        assertThat(read(result, "good")).isTrue();
    }

    @Test
    void deepNestingAndTruncatedJsonAreReportedInOurWords() {
        ManifestResult deep = READER.read("cluster.yaml", NODE + "---\nx: " + "[".repeat(1500) + "]".repeat(1500) + "\n");
        ManifestResult truncated = READER.read("dump.json", "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"n1\"}}\n{\"kind\": ");

        assertThat(describe(deep)).containsExactly("cluster.yaml[1]: line 7: nests deeper than 1000 levels; the document is ignored");
        assertThat(deep.snapshot().nodes()).containsOnlyKeys(new NodeName("n1"));
        assertThat(describe(truncated)).containsExactly("dump.json[1]: line 2, column 10: the JSON ends inside a value "
                + "(is the file cut short?); the rest of the file is ignored");
        assertThat(truncated.snapshot().nodes()).containsOnlyKeys(new NodeName("n1"));
    }

    @Test
    void aPodWithoutContainersIsRefusedAsTheApiServerRefusesIt() {
        String noContainers = "apiVersion: v1\nkind: Pod\nmetadata: {name: empty, namespace: ml}\nspec: {schedulerName: muster}\n";

        ManifestResult result = READER.read("cluster.yaml", noContainers + "---\n" + pod("good", "\"1\""));

        assertThat(describe(result)).containsExactly("cluster.yaml[0] Pod ml/empty: spec.containers: is required: a pod has at least one container");
        assertThat(result.snapshot().jobs()).doesNotContainKey(new JobId("ml", "podgroup-ml-empty"));
        assertThat(read(result, "good")).isTrue();
    }

    static Stream<Arguments> badNames() {
        String longName = "n".repeat(300_000);
        return Stream.of(
                Arguments.of("a 300,000-character pod name", pod(longName, "\"1\""),
                        "cluster.yaml[0] Pod ml/" + "n".repeat(61) + "... (300003 characters): metadata.name: '" + "n".repeat(64)
                                + "... (300000 characters)' is 300000 characters long; at most 253 are allowed"),
                Arguments.of("an upper-case pod name", pod("Train-0", "\"1\""),
                        "cluster.yaml[0] Pod ml/Train-0: metadata.name: 'Train-0' is not a DNS-1123 subdomain (lower case letters, digits, "
                                + "'-' and '.', beginning and ending with a letter or digit)"),
                Arguments.of("a namespace with a dot", pod("p", "\"1\"").replace("namespace: ml", "namespace: m.l"),
                        "cluster.yaml[0] Pod m.l/p: metadata.namespace: 'm.l' is not a DNS-1123 label (lower case letters, digits and '-', "
                                + "beginning and ending with a letter or digit)"),
                Arguments.of("a node label value of 64 characters", NODE.replace("name: n1", "name: n9\n  labels: {zone: " + "z".repeat(64) + "}"),
                        "cluster.yaml[0] Node n9: metadata.labels.zone: '" + "z".repeat(64) + "' is 64 characters long; at most 63 are allowed"),
                Arguments.of("a label key with a bad prefix", NODE.replace("name: n1", "name: n9\n  labels: {-x.io/zone: a}"),
                        "cluster.yaml[0] Node n9: metadata.labels: label key '-x.io/zone' has a prefix that is not a DNS-1123 subdomain"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNames")
    void namesAreCheckedAsTheApiServerChecksThem(String description, String object, String expected) {
        ManifestResult result = READER.read("cluster.yaml", object + "---\n" + NODE);

        assertThat(describe(result)).containsExactly(expected);
        assertThat(result.snapshot().nodes()).containsKey(new NodeName("n1"));
        assertThat(result.snapshot().jobs()).isEmpty();
    }

    @Test
    void aMissingMemberHyperNodeIsReportedOnItsParent() {
        String spine = """
                apiVersion: topology.volcano.sh/v1alpha1
                kind: HyperNode
                metadata: {name: spine}
                spec:
                  tier: 2
                  members:
                  - {type: HyperNode, selector: {exactMatch: {name: rack-a}}}
                  - {type: HyperNode, selector: {exactMatch: {name: rack-b}}}
                ---
                apiVersion: topology.volcano.sh/v1alpha1
                kind: HyperNode
                metadata: {name: rack-a}
                spec:
                  tier: 3
                  members: [{type: Node, selector: {exactMatch: {name: n1}}}]
                """;

        ManifestResult result = READER.read("topology.yaml", spine);

        assertThat(describe(result)).containsExactly(
                "topology.yaml[0] HyperNode spine: spec.members[0].selector.exactMatch.name: HyperNode 'rack-a' has tier 3, "
                        + "not lower than this one's tier 2; jobs with a network topology wait",
                "topology.yaml[0] HyperNode spine: spec.members[1].selector.exactMatch.name: HyperNode 'rack-b' does not exist; "
                        + "jobs with a network topology wait until it does");
        assertThat(result.snapshot().hyperNodes()).hasSize(2);
    }

    @Test
    void aCycleOfHyperNodesIsReportedOnce() {
        String cycle = """
                apiVersion: topology.volcano.sh/v1alpha1
                kind: HyperNode
                metadata: {name: a}
                spec: {tier: 1, members: [{type: HyperNode, selector: {exactMatch: {name: b}}}]}
                ---
                apiVersion: topology.volcano.sh/v1alpha1
                kind: HyperNode
                metadata: {name: b}
                spec: {tier: 1, members: [{type: HyperNode, selector: {exactMatch: {name: a}}}]}
                """;

        ManifestResult result = READER.read("topology.yaml", cycle);

        assertThat(describe(result)).filteredOn(text -> text.contains("own ancestor"))
                .containsExactly("topology.yaml[0] HyperNode a: spec.members: HyperNode is its own ancestor: a -> b -> a; "
                        + "jobs with a network topology wait");
    }
}
