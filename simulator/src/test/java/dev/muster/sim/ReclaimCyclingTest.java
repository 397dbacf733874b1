package dev.muster.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.metrics.RunResult;
import dev.muster.sim.metrics.Summary;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.Workload;
import dev.muster.sim.workload.WorkloadJob;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lending and reclaim under issue 18's configuration ({@code examples/simulate/muster-issue18.conf}) do not
 * cycle here. Two queues of equal weight on two
 * 8-GPU nodes: queue a submits 16 one-GPU jobs of an hour at once and borrows the whole cluster; from
 * 15 minutes on, queue b submits a 4-GPU job every 5 minutes, 12 in all, each of 30 minutes.
 */
class ReclaimCyclingTest {
    private static final Resources GPU = Resources.of(6000, 56.0 * (1L << 30)).withScalar(Resources.GPU, 1000);
    private static final String ISSUE_18 = "conf:../examples/simulate/muster-issue18.conf";
    private static final QueueName A = new QueueName("a");
    private static final QueueName B = new QueueName("b");

    private static Workload contention() {
        List<WorkloadJob> jobs = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            jobs.add(WorkloadJob.single("a" + i, A, 0, new GangSpec("main", 1, GPU, 3_600_000)));
        }
        for (int i = 0; i < 12; i++) {
            jobs.add(WorkloadJob.single("b" + i, B, 900_000 + i * 300_000L, new GangSpec("main", 4, GPU, 1_800_000)));
        }
        return new Workload("contention", Instant.parse("2026-01-01T00:00:00Z"), ImmutableList.copyOf(jobs),
                ImmutableSortedMap.of(A, 1, B, 1), ImmutableList.of(), 0);
    }

    @Test
    void theOwnerTakesItsShareBackAndNoJobIsPreemptedOverAndOver() {
        // when
        RunResult run = SimulationTest.run(ISSUE_18, ClusterSpec.uniform(2, GPU.multiply(8), 16), contention());
        Summary summary = Summary.of(run);

        // then: every job completes, the run never livelocks, b's jobs did not wait for a's hour-long
        // jobs to end, and each of a's jobs lost at most one run to reclaim
        assertThat(summary.livelocked()).isFalse();
        assertThat(summary.completed()).isEqualTo(28);
        assertThat(summary.evictions()).isPositive();
        assertThat(summary.maxEvictionsPerJob()).isLessThanOrEqualTo(1);
        assertThat(run.jobs()).filteredOn(job -> job.id().equals("b0")).singleElement()
                .satisfies(job -> assertThat(job.startedMillis() - job.arrivalMillis()).isLessThan(3_600_000 - 900_000));
    }

    @Test
    void volcanoNeverLendsSoNothingIsReclaimed() {
        // when
        RunResult run = SimulationTest.run("volcano", ClusterSpec.uniform(2, GPU.multiply(8), 16), contention());
        Summary summary = Summary.of(run);

        // then
        assertThat(summary.livelocked()).isFalse();
        assertThat(summary.evictions()).isZero();
    }
}
