package dev.muster.engine.plugins.binpack;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.config.ConfigException;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import dev.muster.engine.testing.TestingScoring;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BinpackPluginTest {
    private static final double GI = 1L << 30;
    private static final String GPU = Resources.GPU;
    private static final BinpackArgs GPU_ARGS = new BinpackArgs(10, 5, 1, "nvidia.com/gpu", ImmutableMap.of("binpack.resources.nvidia.com/gpu", 2));

    static Stream<Arguments> scores() {
        return Stream.of(
                Arguments.of("cpu and memory each half used after the task",
                        BinpackArgs.DEFAULTS, Resources.of(1000, GI), Resources.of(4000, 4 * GI), Resources.of(1000, GI), 50.0),
                Arguments.of("a resource that would overflow the node zeroes the score",
                        BinpackArgs.DEFAULTS, Resources.of(2000, GI), Resources.of(4000, 4 * GI), Resources.of(3000, 0), 0.0),
                Arguments.of("only requested resources count",
                        BinpackArgs.DEFAULTS, Resources.of(1000, 0), Resources.of(4000, 4 * GI), Resources.EMPTY, 25.0),
                Arguments.of("weights per resource and the plugin weight: (5 x 4/8 + 1 x 4/16 + 2 x 2/4) / 8 x 100 x 10",
                        GPU_ARGS, Resources.of(1000, GI).withScalar(GPU, 1000), Resources.of(8000, 16 * GI).withScalar(GPU, 4000),
                        Resources.of(3000, 3 * GI).withScalar(GPU, 1000), 468.75),
                Arguments.of("a requested resource the node lacks adds nothing but keeps its weight: (5 x 1/4) / 7 x 100 x 10",
                        GPU_ARGS, Resources.of(1000, 0).withScalar(GPU, 1000), Resources.of(4000, 4 * GI), Resources.EMPTY, 1250.0 / 7),
                Arguments.of("a resource without a weight is ignored",
                        BinpackArgs.DEFAULTS, Resources.of(2000, 0).withScalar("example.com/foo", 1000), Resources.of(4000, 0).withScalar("example.com/foo", 1000),
                        Resources.EMPTY, 50.0),
                Arguments.of("a zero weight counts nothing",
                        new BinpackArgs(1, 0, 1, "", ImmutableMap.of()), Resources.of(2000, GI), Resources.of(4000, 4 * GI), Resources.EMPTY, 25.0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void scores(String description, BinpackArgs args, Resources request, Resources allocatable, Resources used, double expected) {
        assertThat(new BinpackPlugin(args, 0).score(request, allocatable, used)).isCloseTo(expected, within(1e-9));
    }

    @Test
    void taskGoesToTheFullerNode() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpu(4))
                .node("n2", cpu(4))
                .job("ml/running", "default", 1, cpu(2), 0)
                .running("ml/running", "running-0", cpu(2), "n2")
                .job("ml/new", "default", 1, cpu(1), 1)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig("""
                actions: "allocate"
                tiers:
                - plugins:
                  - name: gang
                  - name: predicates
                  - name: binpack
                """).runOnce(scenario);

        // then
        assertThat(result.binds()).containsEntry(new TaskId("ml", "new-0"), new NodeName("n2"));
    }

    @Test
    void zeroWeightScoresNothing() {
        var scenario = ClusterScenario.builder()
                .node("n1", cpu(4))
                .job("ml/new", "default", 1, cpu(1), 1)
                .build();

        Map<NodeName, Double> scores = TestingScoring.scores("""
                actions: "allocate"
                tiers:
                - plugins:
                  - name: binpack
                    arguments:
                      binpack.weight: 0
                """, scenario, new TaskId("ml", "new-0"));

        assertThat(scores).isEmpty();
    }

    @Test
    void defaultArguments() {
        BinpackArgs args = parse("{}");

        assertThat(args).isEqualTo(BinpackArgs.DEFAULTS);
        assertThat(args.weights()).containsExactly(Map.entry("cpu", 1), Map.entry("memory", 1));
    }

    @Test
    void everyArgument() {
        BinpackArgs args = parse("""
                binpack.weight: 10
                binpack.cpu: 5
                binpack.memory: 0
                binpack.resources: nvidia.com/gpu, example.com/foo
                binpack.resources.nvidia.com/gpu: 2
                """);

        assertThat(args.weight()).isEqualTo(10);
        assertThat(args.weights()).containsExactly(
                Map.entry("cpu", 5), Map.entry("memory", 0), Map.entry("nvidia.com/gpu", 2), Map.entry("example.com/foo", 1));
    }

    static Stream<Arguments> invalidArguments() {
        return Stream.of(
                Arguments.of("a misspelt key", "binpack.cpuu: 2",
                        "unknown argument 'binpack.cpuu'; did you mean 'binpack.cpu'?"),
                Arguments.of("a weight for a resource that is not listed", "binpack.resources: nvidia.com/gpu\nbinpack.resources.example.com/bar: 2",
                        "binpack.resources.example.com/bar: resource 'example.com/bar' is not listed in binpack.resources (listed: nvidia.com/gpu)"),
                Arguments.of("a negative resource weight", "binpack.memory: -1",
                        "binpack.memory must not be negative: -1"),
                Arguments.of("cpu listed as an extra resource", "binpack.resources: cpu",
                        "binpack.resources: 'cpu' is weighted by binpack.cpu, not listed here"),
                Arguments.of("a weight that is not a number", "binpack.weight: heavy",
                        "tiers[0].plugins[0].arguments.binpack.weight: 'heavy' is not a valid int"),
                Arguments.of("a resource weight that is not a number", "binpack.resources: nvidia.com/gpu\nbinpack.resources.nvidia.com/gpu: two",
                        "'two' is not a valid Integer"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void invalidArguments(String description, String arguments, String message) {
        assertThatThrownBy(() -> parse(arguments))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tiers[0].plugins[0].arguments")
                .hasMessageContaining(message);
    }

    private static BinpackArgs parse(String arguments) {
        String config = "actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n    arguments:\n"
                + arguments.lines().map(line -> "      " + line + "\n").reduce("", String::concat);
        return (BinpackArgs) TestingScheduler.loader().parse("test.conf", config).tiers().get(0).get(0).args();
    }
}
