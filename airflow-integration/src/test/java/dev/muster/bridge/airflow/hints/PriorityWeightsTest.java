package dev.muster.bridge.airflow.hints;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableMap;
import dev.muster.bridge.airflow.api.AirflowTask;
import dev.muster.graph.GraphBuilder;
import dev.muster.graph.JobGraph;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A diamond with fan-outs: extract(3) -> (clean(1), features(2), audit(6)); clean and features ->
 * train(4), mapped; train -> (publish(5), archive(7)). Counting a task once per path, not once, would
 * give extract 44 downstream and publish 18 upstream.
 */
class PriorityWeightsTest {
    private static final String DAG = "weights";

    private static AirflowTask task(String id, Optional<BigDecimal> weight, Optional<String> rule, String... downstream) {
        return new AirflowTask(id, List.of(downstream), weight, rule, Optional.of("default_pool"), Optional.of("default"),
                id.equals("train"), Optional.of("KubernetesPodOperator"));
    }

    private static List<AirflowTask> dag(String rule) {
        return dag(Map.of(), Map.of(), rule);
    }

    /** The DAG with every task's rule {@code rule} (none when empty), but for the weights and rules given. */
    private static List<AirflowTask> dag(Map<String, Optional<BigDecimal>> weights, Map<String, String> rules, String rule) {
        Map<String, Integer> own = ImmutableMap.<String, Integer>builder().put("extract", 3).put("clean", 1).put("features", 2)
                .put("audit", 6).put("train", 4).put("publish", 5).put("archive", 7).buildOrThrow();
        Map<String, List<String>> edges = Map.of("extract", List.of("clean", "features", "audit"), "clean", List.of("train"), "features",
                List.of("train"), "train", List.of("publish", "archive"));
        List<AirflowTask> tasks = new ArrayList<>();
        own.forEach((id, weight) -> tasks.add(task(id, weights.getOrDefault(id, Optional.of(BigDecimal.valueOf(weight))),
                Optional.ofNullable(rules.getOrDefault(id, rule.isEmpty() ? null : rule)),
                edges.getOrDefault(id, List.of()).toArray(String[]::new))));
        return tasks;
    }

    private static Map<String, PriorityWeight> weights(List<AirflowTask> tasks) {
        GraphBuilder builder = JobGraph.builder();
        tasks.forEach(task -> builder.node(task.taskId()));
        tasks.forEach(task -> task.downstreamTaskIds().forEach(child -> builder.edge(task.taskId(), child)));
        return PriorityWeights.of(DAG, tasks, builder.build());
    }

    private static Map<String, Long> effective(Map<String, PriorityWeight> weights) {
        Map<String, Long> effective = new TreeMap<>();
        weights.forEach((id, weight) -> weight.effective().ifPresent(value -> effective.put(id, value)));
        return effective;
    }

    static Stream<Arguments> rules() {
        return Stream.of(
                Arguments.of("downstream sums every task below, each once", "downstream",
                        Map.of("extract", 28L, "clean", 17L, "features", 18L, "audit", 6L, "train", 16L, "publish", 5L, "archive", 7L)),
                Arguments.of("no weight_rule is Airflow's default, downstream", "",
                        Map.of("extract", 28L, "clean", 17L, "features", 18L, "audit", 6L, "train", 16L, "publish", 5L, "archive", 7L)),
                Arguments.of("upstream sums every task above, each once", "upstream",
                        Map.of("extract", 3L, "clean", 4L, "features", 5L, "audit", 9L, "train", 10L, "publish", 15L, "archive", 17L)),
                Arguments.of("absolute is the task's own", "absolute",
                        Map.of("extract", 3L, "clean", 1L, "features", 2L, "audit", 6L, "train", 4L, "publish", 5L, "archive", 7L)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void eachRuleSumsAsAirflowDoes(String name, String rule, Map<String, Long> expected) {
        Map<String, PriorityWeight> weights = weights(dag(rule));

        assertThat(effective(weights)).isEqualTo(expected);
        assertThat(weights.values()).allSatisfy(weight -> assertThat(weight.problems()).isEmpty());
        assertThat(weights.get("extract").ownWeight()).isEqualTo("3");
        assertThat(weights.get("extract").weightRule()).isEqualTo(rule.isEmpty() ? "downstream" : rule);
    }

    @Test
    void eachTasksRuleDecidesOnlyItsOwnSum() {
        Map<String, PriorityWeight> weights = weights(dag(Map.of(), Map.of("publish", "upstream", "train", "absolute"), "downstream"));

        assertThat(weights.get("publish").effective()).hasValue(15);
        assertThat(weights.get("train").effective()).hasValue(4);
        // the others still count train's own weight and publish's
        assertThat(weights.get("clean").effective()).hasValue(17);
        assertThat(weights.get("extract").effective()).hasValue(28);
    }

    @Test
    void builtInStrategyClassNamesAreTheirRules() {
        Map<String, PriorityWeight> weights = weights(dag("airflow.task.priority_strategy._UpstreamPriorityWeightStrategy"));

        assertThat(weights.get("publish").effective()).hasValue(15);
        assertThat(weights.get("publish").problems()).isEmpty();
    }

    static Stream<Arguments> unusableWeights() {
        return Stream.of(
                Arguments.of("a negative weight", Optional.of(BigDecimal.valueOf(-4)), "priority_weight -4 is negative"),
                Arguments.of("a weight that is not a whole number", Optional.of(new BigDecimal("2.5")),
                        "priority_weight 2.5 is not a whole number"),
                Arguments.of("no weight", Optional.empty(), "priority_weight null is missing"));
    }

    @ParameterizedTest(name = "{0} is ignored for ordering, named with its DAG and task")
    @MethodSource("unusableWeights")
    void unusableWeightLeavesItsTaskWithoutAWeightAndCountsZero(String name, Optional<BigDecimal> weight, String problem) {
        Map<String, PriorityWeight> weights = weights(dag(Map.of("train", weight), Map.of(), "downstream"));

        assertThat(weights.get("train").effective()).isEmpty();
        assertThat(weights.get("train").problems()).singleElement().asString()
                .startsWith("DAG weights: task train: " + problem).contains("ignored for ordering");
        // extract: 28 without train's 4
        assertThat(weights.get("extract").effective()).hasValue(24);
        assertThat(weights.get("publish").effective()).hasValue(5);
        assertThat(weights.get("extract").problems()).isEmpty();
    }

    @Test
    void unknownRuleIsSummedAsDownstreamAndNamed() {
        Map<String, PriorityWeight> weights = weights(dag(Map.of(), Map.of("train", "plugins.DecreasingPriorityStrategy"), "absolute"));

        assertThat(weights.get("train").effective()).hasValue(16);
        assertThat(weights.get("train").weightRule()).isEqualTo("plugins.DecreasingPriorityStrategy");
        assertThat(weights.get("train").problems()).singleElement().asString()
                .startsWith("DAG weights: task train: weight_rule 'plugins.DecreasingPriorityStrategy' is not one of downstream, upstream,"
                        + " absolute")
                .contains("summed as for downstream");
        assertThat(weights.get("extract").effective()).hasValue(3);
    }

    @Test
    void weightAboveAirflowsCapIsCapped() {
        Map<String, PriorityWeight> weights = weights(dag(Map.of("publish", Optional.of(new BigDecimal("3000000000"))), Map.of(),
                "absolute"));

        assertThat(weights.get("publish").effective()).isEqualTo(OptionalLong.of(Integer.MAX_VALUE));
    }
}
