package dev.muster.engine.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PositionsTest {
    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: train-0
              annotations:
                volcano.sh/queue-name: ml
                volcano: short
            spec:
              containers:
              - name: a
                resources:
                  requests: {cpu: "1"}
              - name: b
                resources:
                  requests:
                    cpu: "-1"
            """;

    private static Optional<String> at(Positions positions, String path) {
        return positions.of(path).map(Positions.Position::describe);
    }

    @Test
    void aFieldIsWhereItsKeyIsWrittenAndAListItemWhereItStarts() {
        Positions positions = YamlDocuments.read("cluster.yaml", "kind: Node\n---\n" + POD).get(1).positions();

        // the second document starts on line 3 of the file
        assertThat(at(positions, "spec.containers[1].resources.requests.cpu")).contains("line 18, column 9");
        assertThat(at(positions, "spec.containers[0].resources.requests.cpu")).contains("line 14, column 18");
        assertThat(at(positions, "spec.containers[1]")).contains("line 15, column 5");
        assertThat(at(positions, "kind")).contains("line 4, column 1");
    }

    @Test
    void aKeyWithDotsIsMatchedWholeNotByItsFirstPart() {
        Positions positions = YamlDocuments.read("cluster.yaml", POD).get(0).positions();

        assertThat(at(positions, "metadata.annotations.volcano.sh/queue-name")).contains("line 6, column 5");
        assertThat(at(positions, "metadata.annotations.volcano")).contains("line 7, column 5");
    }

    @Test
    void anAbsentFieldIsAtTheDeepestPartOfItsPathThatIsWritten() {
        Positions positions = YamlDocuments.read("cluster.yaml", POD).get(0).positions();

        assertThat(at(positions, "spec.containers[0].resources.limits.memory")).contains("line 11, column 5");
        assertThat(at(positions, "spec.containers[7].image")).contains("line 9, column 3");
        assertThat(at(positions, "spec.priorityClassName")).contains("line 8, column 1");
        assertThat(at(positions, "status")).contains("line 1, column 1");
    }

    @Test
    void aFieldReachedThroughAnAliasIsAtItsAnchor() {
        Positions positions = YamlDocuments.read("cluster.yaml", """
                kind: Pod
                spec:
                  containers:
                  - name: a
                    resources:
                      requests: &req {cpu: "-1"}
                      limits: *req
                """).get(0).positions();

        assertThat(at(positions, "spec.containers[0].resources.limits")).contains("line 7, column 7");
        assertThat(at(positions, "spec.containers[0].resources.limits.cpu")).contains("line 6, column 23");
    }

    @Test
    void aListItemHasPositionsOfItsOwn() {
        Positions list = YamlDocuments.read("dump.yaml", """
                apiVersion: v1
                kind: List
                items:
                - kind: Node
                  metadata: {name: n1}
                - kind: Node
                  metadata:
                    name: n2
                """).get(0).positions();

        Positions second = list.under("items[1]");

        assertThat(at(second, "metadata.name")).contains("line 8, column 5");
        assertThat(at(second, "")).contains("line 6, column 3");
        assertThat(list.under("items[5]")).isSameAs(Positions.NONE);
    }

    @Test
    void jsonValuesHavePositionsToo() {
        List<YamlDocument> documents = YamlDocuments.read("pods.json", """
                {"kind": "Node", "metadata": {"name": "n1"}}
                {
                  "kind": "Pod",
                  "spec": {"containers": [
                    {"name": "a", "resources": {"requests": {"cpu": "-1"}}}
                  ]}
                }
                """);

        assertThat(documents).hasSize(2);
        assertThat(at(documents.get(0).positions(), "metadata.name")).contains("line 1, column 31");
        assertThat(at(documents.get(1).positions(), "spec.containers[0].resources.requests.cpu")).contains("line 5, column 46");
    }

    @Test
    void aDocumentThatCannotBeReadAndAnObjectFromTheApiServerHaveNone() {
        YamlDocument broken = YamlDocuments.read("cluster.yaml", "kind: Pod\nspec: [\n").get(0);

        assertThat(broken.error()).isPresent();
        assertThat(broken.positions().of("spec")).isEmpty();
        assertThat(Positions.NONE.of("spec.containers")).isEmpty();
    }
}
