package dev.muster.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FairnessTest {
    @Test
    void capacityIsSplitByWeightAndWhatAQueueDoesNotNeedGoesToTheOthers() {
        assertThat(Fairness.deserved(new int[] {1, 3}, new double[] {100, 100}, 40)).containsExactly(10, 30);
        assertThat(Fairness.deserved(new int[] {1, 1, 2}, new double[] {5, 100, 100}, 45)).containsExactly(5, 40.0 / 3, 80.0 / 3);
        assertThat(Fairness.deserved(new int[] {1, 1}, new double[] {0, 0}, 10)).containsExactly(0, 0);
    }
}
