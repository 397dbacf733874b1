package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.engine.api.GoDuration;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Reading {@code --nodes} and {@code muster.dev/duration}. */
class NodePoolTest {
    @Test
    void aPoolWithoutPrefixIsNamedNodeAndGetsAPodLimit() {
        NodePool pool = NodePool.parse("8:cpu=32,memory=128Gi,nvidia.com/gpu=8");

        assertThat(pool.prefix()).isEqualTo("node");
        assertThat(pool.count()).isEqualTo(8);
        assertThat(pool.allocatable()).containsEntry("cpu", new Quantity("32")).containsEntry("memory", new Quantity("128Gi"))
                .containsEntry("nvidia.com/gpu", new Quantity("8")).containsEntry("pods", new Quantity("110"));
    }

    @Test
    void aPoolMayNameItsNodes() {
        assertThat(NodePool.parse("gpu:2:cpu=64").nodeName(2)).isEqualTo("gpu-2");
    }

    @Test
    void aPoolMayLabelItsNodesWithTheWellKnownTopologyAndInstanceTypeLabelsForShort() {
        NodePool prefixed = NodePool.parse("gpu:2:cpu=64:zone=eu-west-1a,region=eu-west-1,instance-type=p4d.24xlarge,example.com/rack=r7");
        NodePool unprefixed = NodePool.parse("2:cpu=4:zone=a");

        assertThat(prefixed.prefix()).isEqualTo("gpu");
        assertThat(prefixed.labels()).containsExactly(
                Map.entry("topology.kubernetes.io/zone", "eu-west-1a"),
                Map.entry("topology.kubernetes.io/region", "eu-west-1"),
                Map.entry("node.kubernetes.io/instance-type", "p4d.24xlarge"),
                Map.entry("example.com/rack", "r7"));
        assertThat(unprefixed.prefix()).isEqualTo("node");
        assertThat(unprefixed.count()).isEqualTo(2);
        assertThat(unprefixed.labels()).containsExactly(Map.entry("topology.kubernetes.io/zone", "a"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidPools")
    void anInvalidPoolIsRefusedWithWhatIsWrong(String text, String message) {
        assertThatThrownBy(() -> NodePool.parse(text)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }

    static Stream<Arguments> invalidPools() {
        return Stream.of(
                Arguments.of("cpu=32", "is not [PREFIX:]COUNT:RESOURCES[:LABELS]"),
                Arguments.of("a:b:2:cpu=1:zone=x", "is not [PREFIX:]COUNT:RESOURCES[:LABELS]"),
                Arguments.of("2:cpu=1:zone", "'zone' is not LABEL=VALUE"),
                Arguments.of("2:cpu=1:zone=not valid", "label topology.kubernetes.io/zone: 'not valid' is not a valid label value"),
                Arguments.of("2:cpu=1:Bad_/key=x", "label key 'Bad_/key' is not a qualified name"),
                Arguments.of("x:cpu=32", "the node count 'x' is not a number"),
                Arguments.of("0:cpu=32", "at least one node"),
                Arguments.of("2:cpu", "'cpu' is not RESOURCE=QUANTITY"),
                Arguments.of("2:cpu=lots", "'lots' is not a quantity"),
                Arguments.of("GPU:2:cpu=1", "is not a lower-case DNS label"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("durations")
    void durationsAreReadAsGoWritesThem(String text, Duration expected) {
        assertThat(GoDuration.parse(text)).isEqualTo(expected);
    }

    static Stream<Arguments> durations() {
        return Stream.of(
                Arguments.of("30s", Duration.ofSeconds(30)),
                Arguments.of("1m30s", Duration.ofSeconds(90)),
                Arguments.of("500ms", Duration.ofMillis(500)),
                Arguments.of("2h", Duration.ofHours(2)));
    }

    @Test
    void aDurationWithoutUnitIsRefused() {
        assertThatThrownBy(() -> GoDuration.parse("30")).hasMessageContaining("'30' is not a duration such as 90s, 1m30s, 1.5h or 500ms: a unit is missing");
    }
}
