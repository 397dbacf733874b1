package dev.muster.engine.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResourcesTest {
    private static final Resources GPU_TASK = Resources.of(1000, 1024).withScalar(Resources.GPU, 1000);
    private static final Resources CPU_NODE = Resources.of(4000, 4096);

    @Test
    void missingScalarOnTheRightIsZeroOrInfinity() {
        assertThat(GPU_TASK.lessEqual(CPU_NODE, Resources.Missing.ZERO)).isFalse();
        assertThat(GPU_TASK.lessEqual(CPU_NODE, Resources.Missing.INFINITY)).isTrue();
    }

    @Test
    void quantitiesWithinEpsilonCompareEqual() {
        assertThat(Resources.of(1000.05, 0).lessEqual(Resources.of(1000, 0), Resources.Missing.ZERO)).isTrue();
        assertThat(Resources.of(1000.2, 0).lessEqual(Resources.of(1000, 0), Resources.Missing.ZERO)).isFalse();
    }

    @Test
    void namesTheDimensionsThatDoNotFit() {
        assertThat(GPU_TASK.insufficientAgainst(Resources.of(500, 4096))).containsExactly("cpu", Resources.GPU);
    }

    @Test
    void comparesOnlyRequestedDimensions() {
        Resources allocated = Resources.of(3000, 10_000);
        Resources deserved = Resources.of(4000, 1_000);
        assertThat(allocated.lessEqualOnDimensionsOf(deserved, Resources.of(1000, 0))).isTrue();
        assertThat(allocated.lessEqualOnDimensionsOf(deserved, Resources.of(1000, 1))).isFalse();
    }

    @Test
    void arithmeticKeepsScalars() {
        Resources sum = GPU_TASK.add(GPU_TASK);
        assertThat(sum.get(Resources.GPU)).isEqualTo(2000);
        assertThat(sum.subtract(GPU_TASK)).isEqualTo(GPU_TASK);
        assertThat(GPU_TASK.exceededPart(sum).isEmpty()).isTrue();
        assertThat(GPU_TASK.min(CPU_NODE, Resources.Missing.INFINITY).get(Resources.GPU)).isEqualTo(1000);
        assertThat(GPU_TASK.min(CPU_NODE, Resources.Missing.ZERO).get(Resources.GPU)).isZero();
    }

    @Test
    void printsInKubernetesUnits() {
        assertThat(Resources.of(1500, 2.0 * (1L << 30)).withScalar(Resources.GPU, 2000))
                .hasToString("cpu 1500m, memory 2Gi, nvidia.com/gpu 2");
    }
}
