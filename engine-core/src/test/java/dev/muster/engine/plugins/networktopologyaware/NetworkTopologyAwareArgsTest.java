package dev.muster.engine.plugins.networktopologyaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NetworkTopologyAwareArgsTest {
    @Test
    void defaultsAreVolcanos() {
        NetworkTopologyAwareArgs args = NetworkTopologyAwareArgs.DEFAULTS;

        assertThat(args.weight()).isEqualTo(1);
        assertThat(args.normalPodEnable()).isTrue();
        assertThat(args.normalPodFading()).isEqualTo(0.8);
        assertThat(args.evictMaxHyperNodes()).isEqualTo(8);
        assertThat(args.weights()).containsExactly(Map.entry("cpu", 1), Map.entry("memory", 1));
    }

    @Test
    void listedResourcesGetTheirWeightOrOne() {
        NetworkTopologyAwareArgs args = new NetworkTopologyAwareArgs(10, 5, 1, "nvidia.com/gpu, example.com/foo", true, 0.5, 8,
                ImmutableMap.of("hypernode.binpack.resources.nvidia.com/gpu", 2));

        assertThat(args.weights()).containsExactly(Map.entry("cpu", 5), Map.entry("memory", 1), Map.entry("nvidia.com/gpu", 2),
                Map.entry("example.com/foo", 1));
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("negative weight", new Object[] {-1, 1, 1, "", 0.8, ImmutableMap.of()}, "weight must not be negative"),
                Arguments.of("negative fading", new Object[] {1, 1, 1, "", -0.1, ImmutableMap.of()}, "fading must not be negative"),
                Arguments.of("weight of an unlisted resource", new Object[] {1, 1, 1, "", 0.8,
                        ImmutableMap.of("hypernode.binpack.resources.nvidia.com/gpu", 2)}, "is not listed"),
                Arguments.of("a typo", new Object[] {1, 1, 1, "", 0.8, ImmutableMap.of("hypernode.binpack.cpuu", 2)},
                        "unknown argument 'hypernode.binpack.cpuu'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    @SuppressWarnings("unchecked")
    void invalidArgumentsAreRejected(String name, Object[] values, String message) {
        assertThatThrownBy(() -> new NetworkTopologyAwareArgs((int) values[0], (int) values[1], (int) values[2], (String) values[3],
                true, (double) values[4], 8, (Map<String, Integer>) values[5]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}
