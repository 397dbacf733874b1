package dev.muster.sim.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.Resources;
import dev.muster.graph.JobGraph;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.Workload;
import dev.muster.sim.workload.WorkloadJob;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class OfferedLoadTest {
    private static final Resources GPU = Resources.of(6000, 1L << 30).withScalar(Resources.GPU, 1000);
    private static final Resources ONE_GPU_CLUSTER = GPU;

    @Test
    void onlyThePartOfEachRunInsideTheArrivalWindowCountsWithinIt() {
        // given: a 100 s window; "long" runs 1,000 s from 0, "last" arrives at the window's end
        Workload workload = workload(
                WorkloadJob.single("long", Queue.DEFAULT, 0, new GangSpec("main", 1, GPU, 1_000_000)),
                WorkloadJob.single("last", Queue.DEFAULT, 100_000, new GangSpec("main", 1, GPU, 10_000)));

        // then: 1,010 GPU-seconds offered over 100 GPU-seconds, of which 100 inside the window
        assertThat(OfferedLoad.of(workload, ONE_GPU_CLUSTER)).isCloseTo(10.1, within(1e-9));
        assertThat(OfferedLoad.withinWindow(workload, ONE_GPU_CLUSTER)).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void aStageOfAGraphRunsNoEarlierThanItsParentsCouldFinish() {
        // given: "first" (2 GPUs, 30 s) then "second" (1 GPU, 100 s), arriving at 0; the window ends at 100 s
        GangSpec first = new GangSpec("first", 2, GPU, 30_000);
        GangSpec second = new GangSpec("second", 1, GPU, 100_000);
        WorkloadJob graph = new WorkloadJob("dag", Queue.DEFAULT, 0, ImmutableList.of(first, second),
                JobGraph.builder().node("first").node("second").edge("first", "second").build());
        Workload workload = workload(graph, WorkloadJob.single("end", Queue.DEFAULT, 100_000, new GangSpec("main", 1, GPU, 1_000)));

        // then: 2 x 30 GPU-seconds, then "second" from 30 s to 130 s, 70 of them inside; on 2 GPUs for 100 s
        Resources twoGpus = GPU.multiply(2);
        assertThat(OfferedLoad.withinWindow(workload, twoGpus)).isCloseTo((60 + 70) / 200.0, within(1e-9));
        assertThat(OfferedLoad.of(workload, twoGpus)).isCloseTo((60 + 100 + 1) / 200.0, within(1e-9));
    }

    private static Workload workload(WorkloadJob... jobs) {
        return new Workload("test", Instant.parse("2026-01-01T00:00:00Z"), ImmutableList.copyOf(jobs), ImmutableSortedMap.of(Queue.DEFAULT, 1),
                ImmutableList.of(), 0);
    }
}
