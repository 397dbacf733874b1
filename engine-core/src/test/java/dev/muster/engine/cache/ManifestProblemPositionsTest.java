package dev.muster.engine.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class ManifestProblemPositionsTest {
    private static final ManifestReader READER = new ManifestReader(Set.of("muster"));

    private static final String FILE = """
            apiVersion: v1
            kind: Node
            metadata: {name: n1}
            status:
              allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: bad
              namespace: ml
            spec:
              schedulerName: muster
              containers:
              - name: main
                resources:
                  requests:
                    cpu: "-2"
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: empty, namespace: ml}
            spec:
              schedulerName: muster
            """;

    @Test
    void aBadFieldIsReportedAtTheLineAndColumnWhereItIsWritten() {
        ManifestResult result = READER.read("cluster.yaml", FILE);

        assertThat(result.problems()).extracting(ManifestProblem::describeInFile).containsExactly(
                "cluster.yaml[1] Pod ml/bad: spec.containers[0].resources.requests.cpu: '-2' is negative (line 18, column 9)",
                "cluster.yaml[2] Pod ml/empty: spec.containers: is required: a pod has at least one container (line 23, column 1)");
    }

    @Test
    void theTextWithoutAPositionIsTheOneAnEventCarries() {
        ManifestResult result = READER.read("cluster.yaml", FILE);

        // the live cache has no file: describe() is what both print, describeInFile() adds the place
        assertThat(result.problems()).extracting(ManifestProblem::describe).containsExactly(
                "cluster.yaml[1] Pod ml/bad: spec.containers[0].resources.requests.cpu: '-2' is negative",
                "cluster.yaml[2] Pod ml/empty: spec.containers: is required: a pod has at least one container");
    }

    @Test
    void anItemOfAListIsReportedAtItsOwnLines() {
        String list = """
                apiVersion: v1
                kind: List
                items:
                - apiVersion: v1
                  kind: Node
                  metadata: {name: n1}
                - apiVersion: v1
                  kind: Node
                  metadata: {labels: {a: b}}
                """;

        ManifestResult result = READER.read("dump.yaml", list);

        assertThat(result.problems()).extracting(ManifestProblem::describeInFile)
                .containsExactly("dump.yaml[0].items[1] Node: metadata.name: is missing (line 9, column 3)");
    }

    @Test
    void aJsonFileIsReportedWithPositionsToo() {
        String json = """
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "bad", "namespace": "ml"},
                 "spec": {"schedulerName": "muster",
                          "containers": [{"name": "main", "resources": {"requests": {"cpu": "-2"}}}]}}
                """;

        ManifestResult result = READER.read("pods.json", json);

        assertThat(result.problems()).extracting(ManifestProblem::describeInFile).containsExactly(
                "pods.json[0] Pod ml/bad: spec.containers[0].resources.requests.cpu: '-2' is negative (line 3, column 70)");
    }
}
