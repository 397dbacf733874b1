package dev.muster.engine.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class YamlDocumentsTest {
    private static List<YamlDocument> yaml(String text) {
        return YamlDocuments.read("cluster.yaml", text);
    }

    private static JsonNode only(String text) {
        List<YamlDocument> documents = yaml(text);
        assertThat(documents).hasSize(1);
        assertThat(documents.get(0).error()).isEmpty();
        return documents.get(0).tree().orElseThrow();
    }

    private static String error(YamlDocument document) {
        return document.error().orElseThrow().describe();
    }

    @Test
    void aliasesAreResolvedAsKubectlResolvesThem() {
        JsonNode tree = only("""
                requests: &req {cpu: "1", memory: 1Gi}
                limits: *req
                base: &base {a: 1, b: 2}
                merged:
                  <<: *base
                  b: 3
                """);

        assertThat(tree.path("limits").path("cpu").asText()).isEqualTo("1");
        assertThat(tree.path("limits").path("memory").asText()).isEqualTo("1Gi");
        assertThat(tree.path("merged").path("a").asInt()).isEqualTo(1);
        assertThat(tree.path("merged").path("b").asInt()).isEqualTo(3);
    }

    @Test
    void anAliasBombIsRefusedAndCostsOnlyItsDocument() {
        StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (char level = 'b'; level <= 'j'; level++) {
            char previous = (char) (level - 1);
            bomb.append(level).append(": &").append(level).append(" [")
                    .append(String.join(", ", java.util.Collections.nCopies(10, "*" + previous))).append("]\n");
        }

        // 10^10 nodes if expanded: refused after a thousand or so (a hang here would be the defect)
        List<YamlDocument> documents = yaml("kind: Node\n---\n" + bomb + "---\nkind: Pod\n");

        assertThat(documents).hasSize(3);
        assertThat(error(documents.get(1))).contains("aliases expand to more than").contains("alias bomb");
        assertThat(documents.get(0).tree().orElseThrow().path("kind").asText()).isEqualTo("Node");
        assertThat(documents.get(2).tree().orElseThrow().path("kind").asText()).isEqualTo("Pod");
    }

    @Test
    void anAliasInsideItsOwnAnchorIsRefused() {
        List<YamlDocument> documents = yaml("loop: &loop [a, *loop]\n");

        assertThat(error(documents.get(0))).contains("an alias refers to a node that contains it");
    }

    @Test
    void anUndefinedAliasIsASyntaxErrorOfItsDocumentWithLineAndColumn() {
        List<YamlDocument> documents = yaml("kind: Node\n---\nkind: Pod\nlimits: *nowhere\n");

        assertThat(documents.get(0).error()).isEmpty();
        assertThat(error(documents.get(1))).startsWith("line 4, column 9: not valid YAML").contains("nowhere");
    }

    static Stream<Arguments> numbers() {
        return Stream.of(
                Arguments.of("decimal", "42", "42"),
                Arguments.of("YAML 1.1 octal", "012", "10"),
                Arguments.of("YAML 1.2 octal, as go-yaml reads it", "0o12", "10"),
                Arguments.of("hexadecimal", "0x1F", "31"),
                Arguments.of("underscores", "1_000", "1000"),
                Arguments.of("exponent without a dot", "1e3", "1000.0"),
                Arguments.of("infinity stays as written", ".inf", ".inf"),
                Arguments.of("negative infinity stays as written", "-.inf", "-.inf"),
                Arguments.of("not a number stays as written", ".nan", ".nan"),
                Arguments.of("base 60 is text, as in go-yaml", "1:20", "1:20"),
                Arguments.of("a quoted number is text", "\"012\"", "012"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("numbers")
    void numbersAreTypedAsKubectlTypesThem(String description, String written, String read) {
        assertThat(only("value: " + written + "\n").path("value").asText()).isEqualTo(read);
    }

    @Test
    void documentsAreCountedAsYamlCountsThemAndSplitBeforeParsing() {
        List<YamlDocument> documents = yaml("# a comment\n---\na: 1\n---\n---\nb: [unclosed\n--- # next\nc: 3\n");

        assertThat(documents).extracting(YamlDocument::index).containsExactly(0, 1, 2, 3);
        assertThat(documents.get(1).tree()).isEmpty();
        assertThat(documents.get(1).error()).isEmpty();
        assertThat(error(documents.get(2))).startsWith("line 7, column 1: ").contains("not valid YAML");
        assertThat(documents.get(3).tree().orElseThrow().path("c").asInt()).isEqualTo(3);
        assertThat(documents.get(3).firstLine()).isEqualTo(7);
    }

    @Test
    void aByteThatIsNotUtf8CostsOnlyItsDocument() {
        byte[] latin1 = "a: 1\n---\nlabel: caf\u00e9\n---\nb: 2\n".getBytes(StandardCharsets.ISO_8859_1);

        List<YamlDocument> documents = YamlDocuments.read("cluster.yaml", latin1);

        assertThat(documents).hasSize(3);
        assertThat(error(documents.get(1))).isEqualTo("line 3, column 11: not UTF-8: byte 0xE9 does not begin a character; "
                + "the document is ignored");
        assertThat(documents.get(2).tree().orElseThrow().path("b").asInt()).isEqualTo(2);
    }

    @Test
    void deepNestingIsRefusedInOurWords() {
        String deep = "a: " + "[".repeat(1500) + "]".repeat(1500) + "\n";

        String yaml = error(yaml(deep).get(0));
        String json = error(YamlDocuments.read("dump.json", "{\"a\": " + "[".repeat(1500) + "]".repeat(1500) + "}").get(0));

        assertThat(yaml).contains("nests deeper than 1000 levels").doesNotContain("StreamReadConstraints").doesNotContain("Exception");
        assertThat(json).contains("nests deeper than 1000 levels").doesNotContain("StreamReadConstraints").doesNotContain("Source");
    }

    @Test
    void truncatedJsonKeepsTheValuesBeforeIt() {
        List<YamlDocument> documents = YamlDocuments.read("dump.json",
                "{\"kind\": \"Node\", \"metadata\": {\"name\": \"n1\"}}\n{\"kind\": \"Pod\", \"metadata\": {\"name\": \"p1\", ");

        assertThat(documents).hasSize(2);
        assertThat(documents.get(0).tree().orElseThrow().path("kind").asText()).isEqualTo("Node");
        assertThat(error(documents.get(1))).contains("line 2").contains("cut short").doesNotContain("Source").doesNotContain("REDACTED");
        assertThat(documents.get(1).header()).isEqualTo(new YamlDocument.Header("Pod", "", "p1"));
    }

    @Test
    void aBrokenDocumentIsStillNamedByItsHeader() {
        List<YamlDocument> documents = yaml("apiVersion: v1\nkind: Pod\nmetadata:\n  name: train-0\n  namespace: ml\nspec: [\n");

        assertThat(documents.get(0).header()).isEqualTo(new YamlDocument.Header("Pod", "ml", "train-0"));
    }

    @Test
    void aKeyGivenTwiceIsAWarningAndTheLastCounts() {
        List<YamlDocument> documents = yaml("a: 1\na: 2\n");

        assertThat(documents.get(0).tree().orElseThrow().path("a").asInt()).isEqualTo(2);
        assertThat(documents.get(0).warnings()).extracting(ReadError::describe)
                .containsExactly("line 2, column 1: key 'a' is given twice in one mapping; the last one counts");
    }
}
