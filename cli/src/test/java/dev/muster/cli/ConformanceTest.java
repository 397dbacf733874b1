package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.engine.cache.ManifestReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every Volcano conformance case through {@code muster what-if --output json}, the path a user
 * takes, and checks the decisions Volcano's own tests expect. Cases tagged network-topology wait for
 * the topology work: a failing one is reported as skipped with its differences, a passing one passes.
 */
class ConformanceTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * Cases whose facts Volcano itself cannot reproduce through its configuration loader, with the
     * evidence. They are reported as skipped, never bent to: see the conformance README.
     */
    private static final Map<String, String> CASES_VOLCANO_REJECTS = Map.of(
            "hdrf__TestHDRF__00-rescaling-test",
            "its scheduler.conf puts proportion and drf enableHierarchy: true in one tier, which Volcano's loader refuses "
                    + "(pkg/scheduler/util.go:79 'proportion and drf with hierarchy enabled conflicts'); the upstream unit test "
                    + "bypasses the loader, and its expected.json has no binds, only jobAllocated that upstream never asserts");

    static Stream<ConformanceCase> cases() {
        return ConformanceCase.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesVolcano(ConformanceCase testCase) throws Exception {
        // when
        CliRun result = whatIf(testCase);

        // then
        List<String> differences = result.exitCode() == 0
                ? differences(testCase.expected(), MAPPER.readTree(result.stdout()), podGroups(testCase))
                : List.of("exit code " + result.exitCode() + ": " + result.stderr().strip());
        if (CASES_VOLCANO_REJECTS.containsKey(testCase.name())) {
            Assumptions.abort(CASES_VOLCANO_REJECTS.get(testCase.name()) + "; what-if gives: " + differences);
        }
        if (testCase.networkTopology() && !differences.isEmpty()) {
            Assumptions.abort("network-topology case not supported yet: " + differences);
        }
        assertThat(differences).as("differences from Volcano's expected decisions").isEmpty();
    }

    private static CliRun whatIf(ConformanceCase testCase) {
        return CliRun.of("what-if", "--scheduler-name", "volcano", "--config", testCase.config().toString(),
                "--output", "json", testCase.cluster().toString());
    }

    /** Which PodGroup each pod belongs to, read the way what-if reads the cluster. */
    private static Map<String, String> podGroups(ConformanceCase testCase) {
        Map<String, String> result = new TreeMap<>();
        new ManifestReader(Set.of("volcano")).read(List.of(testCase.cluster())).snapshot().jobs().values()
                .forEach(job -> job.tasks().forEach(task -> result.put(task.id().toString(), job.id().toString())));
        return result;
    }

    static List<String> differences(JsonNode expected, JsonNode actual, Map<String, String> podGroups) {
        List<String> differences = new ArrayList<>();
        Map<String, String> actualBinds = textMap(actual.path("binds"));
        if (expected.path("bindsExact").asBoolean(true)) {
            Map<String, String> expectedBinds = textMap(expected.path("binds"));
            if (!expectedBinds.equals(actualBinds)) {
                differences.add("binds: expected " + expectedBinds + " but was " + actualBinds);
            }
        } else if (expected.path("bindCount").asInt() != actualBinds.size()) {
            differences.add("bind count: expected " + expected.path("bindCount").asInt() + " but was " + actualBinds.size() + " " + actualBinds);
        }
        List<String> expectedEvictions = sortedTexts(expected.path("evictions"));
        List<String> actualEvictions = sortedTexts(actual.path("evictions"));
        if (!expectedEvictions.equals(actualEvictions)) {
            differences.add("evictions: expected " + expectedEvictions + " but was " + actualEvictions);
        }
        Map<String, String> actualPipelined = textMap(actual.path("pipelined"));
        for (Iterator<Map.Entry<String, JsonNode>> entries = expected.path("pipelined").fields(); entries.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = entries.next();
            Set<String> nodes = new HashSet<>(sortedTexts(entry.getValue()));
            boolean found = actualPipelined.entrySet().stream()
                    .anyMatch(pipelined -> entry.getKey().equals(podGroups.get(pipelined.getKey())) && nodes.contains(pipelined.getValue()));
            if (!found) {
                differences.add("pipelined: expected a task of " + entry.getKey() + " on one of " + nodes + " but was " + actualPipelined);
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> entries = expected.path("podGroupPhases").fields(); entries.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = entries.next();
            String phase = actual.path("podGroups").path(entry.getKey()).path("phase").asText("<absent>");
            if (!phase.equals(entry.getValue().asText())) {
                differences.add("phase of " + entry.getKey() + ": expected " + entry.getValue().asText() + " but was " + phase);
            }
        }
        return differences;
    }

    private static Map<String, String> textMap(JsonNode node) {
        Map<String, String> result = new TreeMap<>();
        node.fields().forEachRemaining(entry -> result.put(entry.getKey(), entry.getValue().asText()));
        return result;
    }

    private static List<String> sortedTexts(JsonNode node) {
        List<String> result = new ArrayList<>();
        node.forEach(element -> result.add(element.asText()));
        Collections.sort(result);
        return result;
    }
}
