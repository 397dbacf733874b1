package dev.muster.engine.plugins.nodeorder;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static dev.muster.engine.testing.ClusterScenario.cpuMemory;
import static dev.muster.engine.testing.ClusterScenario.gpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.config.ConfigException;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.LabelRequirement;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.NodeSelectorTerm;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.PreferredSchedulingTerm;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Taint;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.Toleration;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import dev.muster.engine.testing.TestingScoring;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NodeOrderPluginTest {
    private static final TaskId TASK = new TaskId("ml", "new-0");
    private static final Resources NONE = Resources.EMPTY;

    private static Arguments row(String description, String weights, Resources node, Resources running, Resources task, double expected) {
        return Arguments.of(description, weights, node, running, task, expected);
    }

    static Stream<Arguments> resourceScores() {
        String least = resourceWeights(1, 0, 0);
        String most = resourceWeights(0, 1, 0);
        String balanced = resourceWeights(0, 0, 1);
        return Stream.of(
                row("least allocated, half the node requested after the task", least, cpuMemory(4, 8), cpuMemory(1, 2), cpuMemory(1, 2), 50),
                row("least allocated, an empty node", least, cpuMemory(4, 8), NONE, cpuMemory(1, 2), 75),
                row("least allocated truncates: (66 x 50 + 85 x 50) / 100", least, cpuMemory(3, 7), NONE, cpuMemory(1, 1), 75),
                row("least allocated counts a best-effort pod as 100m and 200Mi", least, cpuMemory(1, 1), NONE, NONE, 85),
                row("least allocated counts a running pod without a memory request as 200Mi: (0 + 47) / 2", least, cpuMemory(1, 8), cpu(1), cpuMemory(1, 4), 23),
                row("least allocated is 0 for a resource requested beyond the node", least, cpuMemory(1, 8), cpuMemory(1, 1), cpuMemory(1, 3), 25),
                row("most allocated, half the node requested after the task", most, cpuMemory(4, 8), cpuMemory(1, 2), cpuMemory(1, 2), 50),
                row("most allocated truncates: (33 + 14) / 2", most, cpuMemory(3, 7), NONE, cpuMemory(1, 1), 23),
                row("most allocated counts a best-effort pod as 100m and 200Mi: (10 + 19) / 2", most, cpuMemory(1, 1), NONE, NONE, 14),
                row("balanced, equal fractions", balanced, cpuMemory(4, 8), cpuMemory(1, 2), cpuMemory(1, 2), 100),
                row("balanced, two fractions: (1 - |1/3 - 1/7| / 2) x 100", balanced, cpuMemory(3, 7), NONE, cpuMemory(1, 1), 90),
                row("balanced, with a requested gpu: standard deviation of 1/4, 1/4, 1/2", balanced, gpu(4, 4, 4), NONE, gpu(1, 1, 2), 88),
                row("balanced ignores a gpu the pod does not request", balanced, gpu(4, 4, 4), NONE, cpuMemory(1, 1), 100),
                row("balanced skips a best-effort pod", balanced, cpuMemory(4, 8), NONE, NONE, 0),
                row("default weights: least 75 + balanced 100 + taint toleration 100 x 3", "{}", cpuMemory(4, 8), NONE, cpuMemory(1, 2), 475));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void resourceScores(String description, String weights, Resources node, Resources running, Resources task, double expected) {
        // given
        ClusterScenario.Builder builder = ClusterScenario.builder()
                .node("n1", node)
                .job("ml/new", "default", 1, task, 1);
        if (!running.isEmpty()) {
            builder.running("ml/new", "running", running, "n1");
        }
        String config = nodeOrder(weights);

        // when
        Map<NodeName, Double> scores = TestingScoring.scores(config, builder.build(), TASK);

        // then
        assertThat(scores).containsExactly(Map.entry(new NodeName("n1"), expected));
    }

    @Test
    void preferredNodeAffinityIsNormalizedToTheBestNode() {
        // given: n2 matches a term of weight 10, n3 both terms (40)
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node(TestingScoring.node("n1", cpu(4), Map.of("zone", "a"), List.of()))
                .node(TestingScoring.node("n2", cpu(4), Map.of("zone", "b"), List.of()))
                .node(TestingScoring.node("n3", cpu(4), Map.of("zone", "b", "disk", "ssd"), List.of()))
                .job("ml/new", "default", 1, cpu(1), 1)
                .build();
        snapshot = TestingScoring.withTask(snapshot, TASK, task -> TestingScoring.withPlacement(task, Placement.ANYWHERE.withPreferredNodeAffinity(
                ImmutableList.of(preferred(10, "zone", "b"), preferred(30, "disk", "ssd")))));

        // when
        Map<NodeName, Double> scores = TestingScoring.scores(nodeOrder(only("nodeaffinity.weight: 2")), snapshot, TASK);

        // then: 0, 25 and 100, times 2
        assertThat(scores).containsExactlyInAnyOrderEntriesOf(Map.of(
                new NodeName("n1"), 0.0, new NodeName("n2"), 50.0, new NodeName("n3"), 200.0));
    }

    @Test
    void untoleratedPreferNoScheduleTaintsLowerTheScore() {
        // given: n2 has one untolerated taint, n3 two (its third is tolerated)
        Taint a = new Taint("a", "", "PreferNoSchedule");
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node(TestingScoring.node("n1", cpu(4), Map.of(), List.of(new Taint("x", "", "NoSchedule"))))
                .node(TestingScoring.node("n2", cpu(4), Map.of(), List.of(a)))
                .node(TestingScoring.node("n3", cpu(4), Map.of(), List.of(a, new Taint("b", "", "PreferNoSchedule"), new Taint("c", "", "PreferNoSchedule"))))
                .job("ml/new", "default", 1, cpu(1), 1)
                .build();
        snapshot = TestingScoring.withTask(snapshot, TASK, task -> TestingScoring.withPlacement(task,
                new Placement(ImmutableMap.of(), ImmutableList.of(), ImmutableList.of(new Toleration("c", "Exists", "", "")))));

        // when
        Map<NodeName, Double> scores = TestingScoring.scores(nodeOrder(only("tainttoleration.weight: 3")), snapshot, TASK);

        // then: 100, 50 and 0, times 3
        assertThat(scores).containsExactlyInAnyOrderEntriesOf(Map.of(
                new NodeName("n1"), 300.0, new NodeName("n2"), 150.0, new NodeName("n3"), 0.0));
    }

    @Test
    void leastAllocatedSpreadsAndMostAllocatedPacks() {
        // given
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpuMemory(4, 8))
                .node("n2", cpuMemory(4, 8))
                .job("ml/running", "default", 1, cpuMemory(1, 1), 0)
                .running("ml/running", "running-0", cpuMemory(2, 2), "n1")
                .job("ml/new", "default", 1, cpuMemory(1, 1), 1)
                .build();

        // when
        SessionResult spread = TestingScheduler.withConfig(allocate("{}")).runOnce(snapshot);
        SessionResult pack = TestingScheduler.withConfig(allocate(only("mostrequested.weight: 1"))).runOnce(snapshot);

        // then
        assertThat(spread.binds()).containsEntry(TASK, new NodeName("n2"));
        assertThat(pack.binds()).containsEntry(TASK, new NodeName("n1"));
    }

    @Test
    void defaultArguments() {
        assertThat(parse("{}")).isEqualTo(NodeOrderArgs.DEFAULTS);
    }

    @Test
    void everyArgument() {
        NodeOrderArgs args = parse("""
                {leastrequested.weight: 2, mostrequested.weight: 3, balancedresource.weight: 4, nodeaffinity.weight: 5,
                 podaffinity.weight: 6, tainttoleration.weight: 7, imagelocality.weight: 8, podtopologyspread.weight: 9}""");

        assertThat(args).isEqualTo(new NodeOrderArgs(2, 3, 4, 5, 6, 7, 8, 9));
    }

    static Stream<Arguments> invalidArguments() {
        return Stream.of(
                Arguments.of("a misspelt key", "{leastrequested.wieght: 1}",
                        "unknown argument 'leastrequested.wieght'; did you mean 'leastrequested.weight'?"),
                Arguments.of("a weight that is not a number", "{nodeaffinity.weight: high}",
                        "tiers[0].plugins[0].arguments.nodeaffinity.weight: 'high' is not a valid int"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void invalidArguments(String description, String arguments, String message) {
        assertThatThrownBy(() -> parse(arguments))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tiers[0].plugins[0].arguments")
                .hasMessageContaining(message);
    }

    private static PreferredSchedulingTerm preferred(int weight, String key, String value) {
        return new PreferredSchedulingTerm(weight, new NodeSelectorTerm(
                ImmutableList.of(new LabelRequirement(key, "In", ImmutableList.of(value))), ImmutableList.of()));
    }

    private static String resourceWeights(int least, int most, int balanced) {
        return "{leastrequested.weight: %d, mostrequested.weight: %d, balancedresource.weight: %d, nodeaffinity.weight: 0, tainttoleration.weight: 0}"
                .formatted(least, most, balanced);
    }

    /** Arguments with every weight 0 except the given one. */
    private static String only(String weight) {
        return "{leastrequested.weight: 0, balancedresource.weight: 0, nodeaffinity.weight: 0, tainttoleration.weight: 0, " + weight + "}";
    }

    private static String nodeOrder(String arguments) {
        return "actions: allocate\ntiers:\n- plugins:\n  - name: nodeorder\n    arguments: " + arguments + "\n";
    }

    private static String allocate(String arguments) {
        return "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n  - name: predicates\n  - name: nodeorder\n    arguments: " + arguments + "\n";
    }

    private static NodeOrderArgs parse(String arguments) {
        return (NodeOrderArgs) TestingScheduler.loader().parse("test.conf", nodeOrder(arguments)).tiers().get(0).get(0).args();
    }

}
