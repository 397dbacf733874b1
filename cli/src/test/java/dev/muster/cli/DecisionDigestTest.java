package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The guard for performance work: the decisions of fixed inputs (seeded synthetic clusters, one
 * session each, and whole simulations of the trace fixtures) must not change. Each scenario's digest
 * line is compared with the golden files in {@code src/test/resources/decision-digest}; a difference
 * fails with the scenarios that changed and leaves their new decisions in {@code target/decision-digest}.
 *
 * <p>When a change of decisions is intended, regenerate the golden files deliberately and commit them
 * with the reason:
 *
 * <pre>
 * ./mvnw -B -pl cli -am verify -Dtest=DecisionDigestTest -Dsurefire.failIfNoSpecifiedTests=false -Dmuster.digest.update=true
 * </pre>
 */
class DecisionDigestTest {
    static final String UPDATE_PROPERTY = "muster.digest.update";
    private static final Path GOLDEN = Path.of("src/test/resources/decision-digest");
    private static final Path CHANGED = Path.of("target/decision-digest");

    @Test
    void sessionDecisionsEqualTheGoldenDigests() throws IOException {
        check("sessions.txt", DecisionDigests.sessions());
    }

    @Test
    void simulatedTraceDecisionsEqualTheGoldenDigests() throws IOException {
        check("traces.txt", DecisionDigests.traces());
    }

    @Test
    void theSameInputGivesTheSameDigestTwice() {
        Supplier<DecisionDigests.Scenario> scenario = DecisionDigests.sessions().get("random-2 custom");

        assertThat(scenario.get()).isEqualTo(scenario.get());
    }

    private static void check(String fileName, Map<String, Supplier<DecisionDigests.Scenario>> scenarios) throws IOException {
        Path golden = GOLDEN.resolve(fileName);
        Map<String, DecisionDigests.Scenario> actual = new LinkedHashMap<>();
        scenarios.forEach((name, scenario) -> actual.put(name, scenario.get()));
        List<String> lines = actual.values().stream().map(DecisionDigests.Scenario::line).toList();
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            Files.write(golden, lines, StandardCharsets.UTF_8);
            return;
        }
        assertThat(golden).as("golden file; create it with -D%s=true", UPDATE_PROPERTY).exists();
        Map<String, String> expected = byScenario(Files.readAllLines(golden, StandardCharsets.UTF_8));
        List<String> differences = new ArrayList<>();
        actual.forEach((name, scenario) -> {
            String expectedLine = expected.get(name);
            if (expectedLine == null) {
                differences.add("  " + name + ": new scenario, not in the golden file: " + scenario.line());
            } else if (!expectedLine.equals(scenario.line())) {
                differences.add("  " + name + ":\n    expected " + expectedLine + "\n    but was  " + scenario.line());
                writeDecisions(name, scenario);
            }
        });
        expected.keySet().stream().filter(name -> !actual.containsKey(name))
                .forEach(name -> differences.add("  " + name + ": in the golden file but no longer computed"));
        assertThat(differences).as("""
                decisions changed in %d of %d scenarios of %s:
                %s
                The new decisions of each changed scenario are in %s (run the test on the previous commit to get the old ones).
                If the change is intended, regenerate the golden files with -D%s=true and commit them with the reason.""",
                differences.size(), actual.size(), golden, String.join("\n", differences), CHANGED.toAbsolutePath(), UPDATE_PROPERTY)
                .isEmpty();
    }

    /** A golden line begins with the input and the configuration, e.g. {@code random-1                 alloc    binds=...}. */
    private static Map<String, String> byScenario(List<String> lines) {
        Map<String, String> result = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            String[] words = line.trim().split("\\s+");
            result.put(words[0] + " " + words[1], line);
        }
        return result;
    }

    private static void writeDecisions(String name, DecisionDigests.Scenario scenario) {
        try {
            Files.createDirectories(CHANGED);
            Files.writeString(CHANGED.resolve(name.replace(' ', '-') + ".txt"), scenario.decisions().replace("), ", "),\n"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the changed decisions of " + name + " to " + CHANGED, e);
        }
    }
}
