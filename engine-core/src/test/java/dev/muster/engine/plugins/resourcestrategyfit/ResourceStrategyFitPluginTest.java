package dev.muster.engine.plugins.resourcestrategyfit;

import static dev.muster.engine.plugins.resourcestrategyfit.ScoringType.LeastAllocated;
import static dev.muster.engine.plugins.resourcestrategyfit.ScoringType.MostAllocated;
import static dev.muster.engine.testing.ClusterScenario.cpu;
import static dev.muster.engine.testing.ClusterScenario.cpuMemory;
import static dev.muster.engine.testing.ClusterScenario.gpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.config.ConfigException;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
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

class ResourceStrategyFitPluginTest {
    private static final String GPU = Resources.GPU;
    private static final TaskId TASK = new TaskId("ml", "new-0");
    private static final ImmutableMap<String, ResourceStrategy> GPU_MOST_CPU_LEAST = ImmutableMap.of(
            GPU, new ResourceStrategy(MostAllocated, 2), "cpu", new ResourceStrategy(LeastAllocated, 1));
    private static final Resources GPU_NODE = Resources.of(5000, 10.0 * (1L << 30)).withScalar(GPU, 10_000);
    private static final Resources GPU_TASK = Resources.of(1000, 1e9).withScalar(GPU, 2000);

    static Stream<Arguments> strategyScores() {
        return Stream.of(
                Arguments.of("gpu most allocated x 2, cpu least allocated: (2 x 2/10 + 4/5) / 3", StrategyScore.configured(GPU_MOST_CPU_LEAST),
                        GPU_TASK, GPU_NODE, Resources.EMPTY, 0.4),
                Arguments.of("the same on a node already running such a task: (2 x 4/10 + 3/5) / 3", StrategyScore.configured(GPU_MOST_CPU_LEAST),
                        GPU_TASK, GPU_NODE, GPU_TASK, 1.4 / 3),
                Arguments.of("the longest wildcard prefix wins", StrategyScore.configured(ImmutableMap.of(
                                "nvidia.*", new ResourceStrategy(LeastAllocated, 3), "nvidia.com/*", new ResourceStrategy(MostAllocated, 1))),
                        Resources.EMPTY.withScalar(GPU, 1000), Resources.EMPTY.withScalar(GPU, 4000), Resources.EMPTY, 0.25),
                Arguments.of("an exact name wins over a wildcard", StrategyScore.configured(ImmutableMap.of(
                                "nvidia.com/*", new ResourceStrategy(MostAllocated, 1), GPU, new ResourceStrategy(LeastAllocated, 1))),
                        Resources.EMPTY.withScalar(GPU, 1000), Resources.EMPTY.withScalar(GPU, 4000), Resources.EMPTY, 0.75),
                Arguments.of("a resource that would overflow the node zeroes the score", StrategyScore.configured(GPU_MOST_CPU_LEAST),
                        GPU_TASK, GPU_NODE, Resources.of(4500, 0), 0.0),
                Arguments.of("a requested resource the node lacks keeps its weight: (0 + 4/5) / 3", StrategyScore.configured(GPU_MOST_CPU_LEAST),
                        GPU_TASK, Resources.of(5000, 1e10), Resources.EMPTY, 0.8 / 3),
                Arguments.of("a pod's annotations replace the configuration", StrategyScore.podLevel("MostAllocated", Map.of("cpu", 1)),
                        cpuMemory(1, 1), cpuMemory(4, 4), Resources.EMPTY, 0.25),
                Arguments.of("an unknown pod scoring type scores 0", StrategyScore.podLevel("Fastest", Map.of("cpu", 2)),
                        cpuMemory(1, 1), cpuMemory(4, 4), Resources.EMPTY, 0.0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void strategyScores(String description, StrategyScore strategy, Resources request, Resources allocatable, Resources used, double expected) {
        assertThat(strategy.score(request, allocatable, used)).isCloseTo(expected, within(1e-9));
    }

    /** resource_strategy_fit__TestAllocate__00-gpu-mostallocated, without the proportion plugin (not on this branch). */
    @Test
    void gpuTaskGoesToTheGpuNodeAlreadyInUse() {
        // given
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node(TestingScoring.node("n1", GPU_NODE, Map.of("nodeResourceType", "gpu"), List.of()))
                .node(TestingScoring.node("n2", GPU_NODE, Map.of("nodeResourceType", "gpu"), List.of()))
                .node(TestingScoring.node("n3", cpuMemory(5, 10), Map.of("nodeResourceType", "cpu"), List.of()))
                .node(TestingScoring.node("n4", cpuMemory(5, 10), Map.of("nodeResourceType", "cpu"), List.of()))
                .queue("c1", 1)
                .job("c1/pg1", "c1", 1, GPU_TASK, 1)
                .running("c1/pg1", "p2", GPU_TASK, "n2")
                .build();
        snapshot = TestingScoring.withTask(snapshot, new TaskId("c1", "pg1-0"), task -> TestingScoring.withPlacement(task,
                new Placement(ImmutableMap.of("nodeResourceType", "gpu"), ImmutableList.of(), ImmutableList.of())));

        // when
        SessionResult result = TestingScheduler.withConfig("""
                actions: "allocate"
                tiers:
                - plugins:
                  - name: resource-strategy-fit
                    arguments:
                      resourceStrategyFitWeight: 10
                      resources:
                        nvidia.com/gpu: {type: MostAllocated, weight: 2}
                        cpu: {type: LeastAllocated, weight: 1}
                  - name: gang
                  - name: drf
                  - name: predicates
                  - name: nodeorder
                """).runOnce(snapshot);

        // then
        assertThat(result.binds()).containsExactly(Map.entry(new TaskId("c1", "pg1-0"), new NodeName("n2")));
    }

    @Test
    void scarceResourceAvoidanceKeepsCpuTasksOffGpuNodes() {
        // given
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", gpu(8, 16, 4))
                .node("n2", cpuMemory(8, 16))
                .job("ml/new", "default", 1, cpu(1), 1)
                .build();

        // when
        Map<NodeName, Double> scores = TestingScoring.scores("""
                actions: allocate
                tiers:
                - plugins:
                  - name: resource-strategy-fit
                    arguments:
                      resourceStrategyFitWeight: 0
                      sra: {enable: true, resources: nvidia.com/gpu, weight: 10}
                """, snapshot, TASK);

        // then: (1 - 1) x 100 x 10 on the gpu node, (1 - 0) x 100 x 10 on the other
        assertThat(scores).containsExactlyInAnyOrderEntriesOf(Map.of(new NodeName("n1"), 0.0, new NodeName("n2"), 1000.0));
    }

    @ParameterizedTest(name = "a task of {0} cpu on a node with 4 gpus, 8 cpu and 16Gi: bound {1}")
    @MethodSource
    void proportionalPredicateKeepsCpuForTheGpus(double cores, boolean bound) {
        // given: each idle gpu keeps 1 cpu and 2 GB free
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", gpu(8, 16, 4))
                .job("ml/new", "default", 1, cpuMemory(cores, 1), 1)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig("""
                actions: allocate
                tiers:
                - plugins:
                  - name: gang
                  - name: resource-strategy-fit
                    arguments:
                      proportional:
                        enable: true
                        resources: nvidia.com/gpu
                        resourceProportion: {nvidia.com/gpu.cpu: 1, nvidia.com/gpu.memory: 2}
                """).runOnce(snapshot);

        // then
        assertThat(result.binds().containsKey(TASK)).isEqualTo(bound);
    }

    static Stream<Arguments> proportionalPredicateKeepsCpuForTheGpus() {
        return Stream.of(Arguments.of(4.0, true), Arguments.of(5.0, false));
    }

    @Test
    void defaultArguments() {
        ResourceStrategyFitArgs args = parse("{}");

        assertThat(args).isEqualTo(ResourceStrategyFitArgs.DEFAULTS);
        assertThat(args.resources()).containsOnlyKeys("cpu", "memory");
    }

    @Test
    void everyArgument() {
        ResourceStrategyFitArgs args = parse("""
                resourceStrategyFitWeight: 5
                resources:
                  nvidia.com/*: {type: MostAllocated, weight: 2}
                  cpu: {weight: 3}
                sra: {enable: true, resources: "nvidia.com/gpu, example.com/foo", weight: 4, resourceWeight: {example.com/foo: 2}}
                proportional: {enable: true, resources: nvidia.com/gpu, resourceProportion: {nvidia.com/gpu.cpu: 4}}
                """);

        assertThat(args.weight()).isEqualTo(5);
        assertThat(args.resources()).isEqualTo(ImmutableMap.of(
                "nvidia.com/*", new ResourceStrategy(MostAllocated, 2), "cpu", new ResourceStrategy(LeastAllocated, 3)));
        assertThat(args.sra().weights()).containsExactly(Map.entry("nvidia.com/gpu", 1), Map.entry("example.com/foo", 2));
        assertThat(args.proportional().rates()).containsExactly(Map.entry("nvidia.com/gpu", new ProportionalArgs.Rate(4, 1)));
    }

    static Stream<Arguments> invalidArguments() {
        return Stream.of(
                Arguments.of("a lone wildcard", "resources: {'*': {type: MostAllocated}}",
                        "resources: '*' is not a resource name or a prefix with one trailing '*'"),
                Arguments.of("a wildcard in the middle", "resources: {'nvidia*/gpu': {weight: 1}}",
                        "resources: 'nvidia*/gpu' is not a resource name"),
                Arguments.of("a zero weight", "resources: {cpu: {weight: 0}}", "weight must be positive: 0"),
                Arguments.of("an unknown scoring type", "resources: {cpu: {type: Fastest}}", "'Fastest' is not a valid ScoringType"),
                Arguments.of("a misspelt key inside a strategy", "resources: {cpu: {typ: MostAllocated}}",
                        "arguments.resources.cpu: unknown argument 'typ'; did you mean 'type'? (known: type, weight)"),
                Arguments.of("a negative plugin weight", "resourceStrategyFitWeight: -1", "resourceStrategyFitWeight must not be negative: -1"),
                Arguments.of("sra enabled without a weight", "sra: {enable: true, resources: nvidia.com/gpu}",
                        "sra.weight must be positive when sra.enable is true: 0"),
                Arguments.of("an sra weight for a resource not listed", "sra: {resources: nvidia.com/gpu, resourceWeight: {cpu: 1}}",
                        "sra.resourceWeight: resource 'cpu' is not listed in sra.resources (listed: nvidia.com/gpu)"),
                Arguments.of("a proportion for a resource not listed", "proportional: {resources: nvidia.com/gpu, resourceProportion: {example.com/foo.cpu: 1}}",
                        "proportional.resourceProportion: 'example.com/foo.cpu' is not <resource>.cpu or <resource>.memory"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void invalidArguments(String description, String arguments, String message) {
        assertThatThrownBy(() -> parse(arguments))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tiers[0].plugins[0].arguments")
                .hasMessageContaining(message);
    }

    private static ResourceStrategyFitArgs parse(String arguments) {
        String config = "actions: allocate\ntiers:\n- plugins:\n  - name: resource-strategy-fit\n    arguments:\n"
                + arguments.lines().map(line -> "      " + line + "\n").reduce("", String::concat);
        return (ResourceStrategyFitArgs) TestingScheduler.loader().parse("test.conf", config).tiers().get(0).get(0).args();
    }
}
