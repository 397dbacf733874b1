package dev.muster.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.engine.model.Queue;
import dev.muster.engine.model.Resources;
import dev.muster.engine.plugins.shortestfirst.ShortestFirstPlugin;
import dev.muster.sim.workload.DurationEstimates;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.WorkloadJob;
import org.junit.jupiter.api.Test;

class EstimateHintsTest {
    private static final WorkloadJob JOB = WorkloadJob.single("j1", Queue.DEFAULT, 0,
            new GangSpec("main", 1, Resources.of(1000, 0), 3_600_000));

    @Test
    void aPolicyIsNeverToldTheTracesTrueDuration() {
        assertThatThrownBy(() -> new EstimateHints(DurationEstimates.ORACLE, 1))
                .hasMessageContaining("must carry error (lognormal:SIGMA), not the trace's durations");
    }

    @Test
    void estimatesAreNoisyWholeSecondsAndTheSameForTheSameSeed() {
        // when
        String first = new EstimateHints(DurationEstimates.lognormal(1), 7).annotations(JOB).get("main")
                .get(ShortestFirstPlugin.DURATION_ESTIMATE);
        String again = new EstimateHints(DurationEstimates.lognormal(1), 7).annotations(JOB).get("main")
                .get(ShortestFirstPlugin.DURATION_ESTIMATE);
        String otherSeed = new EstimateHints(DurationEstimates.lognormal(1), 8).annotations(JOB).get("main")
                .get(ShortestFirstPlugin.DURATION_ESTIMATE);

        // then
        assertThat(first).matches("[0-9]+").isEqualTo(again).isNotEqualTo("3600").isNotEqualTo(otherSeed);
    }
}
