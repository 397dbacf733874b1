package dev.muster.sim.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.policy.BaselinePolicy;
import dev.muster.sim.policy.EnginePolicy;
import dev.muster.sim.policy.SchedulingPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Three applications submitted at once to one node of 4 cpu: each a driver of 1 cpu and 2 executors of
 * 1.5 cpu, one stage of 60 s. The three drivers fit the node together; then no executor does.
 */
class SparkSimulationTest {
    private static final SchedulerConfigLoader LOADER = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
    private static final double GIB = 1024.0 * 1024 * 1024;
    private static final ImmutableSortedMap<NodeName, ClusterNode> NODE = ClusterSpec.uniform(1, Resources.of(4000, 64 * GIB), 8).nodes();

    private static List<SparkAppSpec> threeApplications() {
        ImmutableList.Builder<SparkAppSpec> apps = ImmutableList.builder();
        for (int i = 0; i < 3; i++) {
            apps.add(new SparkAppSpec("q" + i, 0, Resources.of(1000, GIB), Resources.of(1500, GIB), 2, 2, 2, 10_000, ImmutableList.of(60_000L)));
        }
        return apps.build();
    }

    private static SparkRunResult run(SchedulingPolicy policy) {
        return new SparkSimulation(policy, NODE, threeApplications(), SparkContention.EPOCH, 600_000).run();
    }

    @Test
    void underThePerPodBaselineTheDriversTakeTheRoomOfEveryExecutorAndNoneFinishes() {
        // when
        SparkRunResult result = run(new BaselinePolicy(1));

        // then
        assertThat(result.completed()).isZero();
        assertThat(result.deadlocked()).isEqualTo(3);
        assertThat(result.starved()).isEqualTo(3);
        assertThat(result.idleDriverSeconds()).isGreaterThan(3 * 1800.0);
    }

    @Test
    void admittingWholeApplicationsRunsThemOneAfterAnother() {
        // when
        SparkRunResult volcano = run(new EnginePolicy(SparkContention.volcano(LOADER)));
        SparkRunResult reservation = run(new EnginePolicy(SparkContention.reservation(LOADER)));
        SparkRunResult defaultWithReservation = run(new EnginePolicy(SparkContention.defaultWithReservation(LOADER)));

        // then: each runs alone: bound at once, executors 10 s later, 60 s of work
        assertThat(volcano.deadlocked()).isZero();
        assertThat(reservation.deadlocked()).isZero();
        assertThat(reservation.completed()).isEqualTo(3);
        assertThat(reservation.averageJctSeconds()).isLessThan(3 * 80.0);
        assertThat(defaultWithReservation.completed()).isEqualTo(3);
        assertThat(defaultWithReservation.averageJctSeconds()).isLessThan(3 * 80.0);
    }

    @Test
    void theSameSeedGivesTheSameWorkloadAndTheSameFigures() {
        // given
        ImmutableList<SparkAppSpec> first = SparkWorkload.generate(10, 60_000, 1.0, false, 7);
        ImmutableList<SparkAppSpec> second = SparkWorkload.generate(10, 60_000, 1.0, false, 7);
        ImmutableSortedMap<NodeName, ClusterNode> nodes = ClusterSpec.uniform(2, SparkContention.NODE, 8).nodes();

        // when
        SparkRunResult one = new SparkSimulation(new EnginePolicy(SparkContention.reservation(LOADER)), nodes, first, SparkContention.EPOCH,
                600_000).run();
        SparkRunResult two = new SparkSimulation(new EnginePolicy(SparkContention.reservation(LOADER)), nodes, second, SparkContention.EPOCH,
                600_000).run();

        // then
        assertThat(first).isEqualTo(second);
        assertThat(one).isEqualTo(two);
        assertThat(one.completed()).isEqualTo(10);
    }

    @Test
    void withDynamicAllocationAnApplicationStartsWithItsInitialExecutorsAndGrowsToItsMaximum() {
        // given: 2 initial executors of 1.5 cpu, at most 4 (6 cpu), one stage of 60 s with 4; a node of 8 cpu
        SparkAppSpec app = new SparkAppSpec("q0", 0, Resources.of(1000, GIB), Resources.of(1500, GIB), 2, 4, 1, 10_000,
                ImmutableList.of(60_000L));
        ImmutableSortedMap<NodeName, ClusterNode> node = ClusterSpec.uniform(1, Resources.of(8000, 64 * GIB), 8).nodes();

        // when
        SparkRunResult result = new SparkSimulation(new EnginePolicy(SparkContention.volcano(LOADER)), node, List.of(app),
                SparkContention.EPOCH, 600_000).run();

        // then: bound at 1 s, asks at 11 s, runs on 2 from 12 s and on 4 from 14 s: about 75 s, where 2 executors
        // alone would take 12 s + 120 s
        assertThat(result.completed()).isEqualTo(1);
        assertThat(result.averageJctSeconds()).isBetween(70.0, 80.0);
    }

    @Test
    void theDynamicWorkloadDrawsTheSameApplicationsAndCountsOnlyTheInitialExecutorsInMinResources() {
        // when
        ImmutableList<SparkAppSpec> statics = SparkWorkload.generate(20, 60_000, 1.0, false, 3);
        ImmutableList<SparkAppSpec> dynamics = SparkWorkload.generate(20, 60_000, 1.0, true, 3);

        // then
        for (int i = 0; i < statics.size(); i++) {
            SparkAppSpec fixed = statics.get(i);
            SparkAppSpec dynamic = dynamics.get(i);
            assertThat(dynamic.maxExecutors()).isEqualTo(fixed.executors());
            assertThat(dynamic.workExecutorMillis()).isEqualTo(fixed.workExecutorMillis());
            assertThat(dynamic.executors()).isEqualTo(SparkWorkload.DYNAMIC_INITIAL);
            assertThat(dynamic.gangExecutors()).isEqualTo(SparkWorkload.DYNAMIC_MIN);
            assertThat(dynamic.minResources()).isEqualTo(SparkWorkload.DRIVER.add(SparkWorkload.EXECUTOR.multiply(SparkWorkload.DYNAMIC_INITIAL)));
        }
    }
}
