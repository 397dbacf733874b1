package dev.muster.sim.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.Resources;
import dev.muster.graph.JobGraph;
import dev.muster.sim.Comparison;
import dev.muster.sim.ProgressListener;
import dev.muster.sim.SimulationOptions;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.policy.PolicySpec;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.SyntheticWorkload;
import dev.muster.sim.workload.TraceSelection;
import dev.muster.sim.workload.Workload;
import dev.muster.sim.workload.WorkloadJob;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class JctFloorTest {
    private static final Resources GPU = Resources.of(6000, 1L << 30).withScalar(Resources.GPU, 1000);

    @Test
    void eachJobCountsItsLongestChainOfStagesFromItsArrival() {
        // given: a job of one gang of 100 s, and a graph a (10 s) -> b (20 s), a -> c (5 s) arriving later
        WorkloadJob dag = new WorkloadJob("dag", Queue.DEFAULT, 50_000,
                ImmutableList.of(new GangSpec("a", 1, GPU, 10_000), new GangSpec("b", 1, GPU, 20_000), new GangSpec("c", 1, GPU, 5_000)),
                JobGraph.builder().node("a").node("b").node("c").edge("a", "b").edge("a", "c").build());
        Workload workload = new Workload("test", Instant.parse("2026-01-01T00:00:00Z"),
                ImmutableList.of(WorkloadJob.single("one", Queue.DEFAULT, 0, new GangSpec("main", 1, GPU, 100_000)), dag),
                ImmutableSortedMap.of(Queue.DEFAULT, 1), ImmutableList.of(), 0);

        // then: (100 + (10 + 20)) / 2
        assertThat(JctFloor.seconds(workload)).isCloseTo(65.0, within(1e-9));
    }

    @Test
    void noPolicyAveragesBelowItOnAContendedCluster() {
        // given: 40 jobs of one pod each (so none is stranded half placed), arriving faster than two nodes run them
        Workload workload = SyntheticWorkload.generate("jobs=40,queues=2,gpus=1|2|4|8,interval=30,duration=60..600", 3, TraceSelection.ALL);
        SchedulerConfigLoader loader = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);

        // when
        Comparison comparison = Comparison.run(workload,
                ClusterSpec.uniform(2, Resources.of(48_000, 448.0 * (1L << 30)).withScalar(Resources.GPU, 8000), 16),
                PolicySpec.parseList("baseline,muster", loader), 1, SimulationOptions.DEFAULTS, name -> ProgressListener.NONE);

        // then: every job completed, so the averages are over the same jobs; the jobs queued, so the floor is strictly lower
        assertThat(comparison.jctFloorSeconds()).isEqualTo(JctFloor.seconds(workload)).isPositive();
        for (Summary summary : comparison.summaries()) {
            assertThat(summary.completed()).isEqualTo(workload.jobs().size());
            assertThat(summary.avgQueueingSeconds()).isPositive();
            assertThat(summary.avgJctSeconds()).isGreaterThan(comparison.jctFloorSeconds());
        }
    }
}
