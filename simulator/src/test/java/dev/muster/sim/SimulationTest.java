package dev.muster.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.Resources;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.metrics.JobRecord;
import dev.muster.sim.metrics.RunResult;
import dev.muster.sim.metrics.Summary;
import dev.muster.sim.policy.PolicySpec;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.Workload;
import dev.muster.sim.workload.WorkloadJob;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SimulationTest {
    private static final SchedulerConfigLoader LOADER = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
    private static final Resources GPU = Resources.of(6000, 56.0 * (1L << 30)).withScalar(Resources.GPU, 1000);
    private static final ClusterSpec ONE_NODE_FOUR_GPUS = ClusterSpec.uniform(1, GPU.multiply(4), 16);

    /**
     * X (1 GPU, 100 s) and Z (1 GPU, 200 s) start at 0. A (2 pods of 2 GPUs) arrives at 1, B (3 pods
     * of 1 GPU) at 2. Baseline: A-0 takes the 2 free GPUs; X's GPU goes to B-0 at 100, Z's to B-1 at
     * 200; then A-1 and B-2 wait for each other forever. Muster: B fits at 100 (3 free) and runs to
     * 150; A gets the whole node when Z ends, at 200, and runs to 250.
     */
    private static Workload deadlockWorkload() {
        return workload(
                job("x", 0, new GangSpec("main", 1, GPU, 100_000)),
                job("z", 0, new GangSpec("main", 1, GPU, 200_000)),
                job("a", 1_000, new GangSpec("main", 2, GPU.multiply(2), 50_000)),
                job("b", 2_000, new GangSpec("main", 3, GPU, 50_000)));
    }

    @Test
    void baselineDeadlocksTwoPartlyPlacedGangs() {
        RunResult run = run("baseline", ONE_NODE_FOUR_GPUS, deadlockWorkload());

        Map<String, JobRecord> jobs = byId(run);
        assertThat(jobs.get("x").completedMillis()).isEqualTo(100_000);
        assertThat(jobs.get("z").completedMillis()).isEqualTo(200_000);
        assertThat(jobs.get("a").completed()).isFalse();
        assertThat(jobs.get("b").completed()).isFalse();
        Summary summary = Summary.of(run);
        assertThat(summary.stuckJobs()).isEqualTo(2);
        // The run ends at 201 s, with the cycle after B-1's bind, which changes nothing.
        // A holds 2 GPUs from 1 s to the end; B holds 1 GPU from 100 s, 2 from 200 s.
        assertThat(run.endMillis()).isEqualTo(201_000);
        assertThat(summary.wastedGpuSeconds()).isEqualTo(2 * 200.0 + 1 * 100.0 + 2 * 1.0);
    }

    @Test
    void musterPlacesEachGangWholeAndCompletesBoth() {
        RunResult run = run("muster", ONE_NODE_FOUR_GPUS, deadlockWorkload());

        Map<String, JobRecord> jobs = byId(run);
        assertThat(jobs.get("b").completedMillis()).isEqualTo(150_000);
        assertThat(jobs.get("a").completedMillis()).isEqualTo(250_000);
        Summary summary = Summary.of(run);
        assertThat(summary.completed()).isEqualTo(4);
        assertThat(summary.stuckJobs()).isZero();
        assertThat(summary.wastedGpuSeconds()).isZero();
        assertThat(summary.avgJctSeconds()).isEqualTo((100 + 200 + 249 + 148) / 4.0);
        assertThat(summary.makespanSeconds()).isEqualTo(250);
    }

    @Test
    void aGangWorksOnlyOnceAllItsPodsRun() {
        // Two pods of 4 GPUs on two nodes, one busy for 30 s: the first pod waits idle until the second starts.
        ClusterSpec cluster = ClusterSpec.uniform(2, GPU.multiply(4), 16);
        Workload workload = workload(job("busy", 0, new GangSpec("main", 1, GPU.multiply(4), 30_000)),
                job("gang", 0, new GangSpec("main", 2, GPU.multiply(4), 10_000)));

        RunResult run = run("baseline", cluster, workload);

        assertThat(byId(run).get("gang").completedMillis()).isEqualTo(40_000);
        assertThat(run.gangs()).filteredOn(gang -> gang.job().equals("gang")).singleElement()
                .satisfies(gang -> assertThat(gang.wastedGpuSeconds()).isEqualTo(4 * 30.0));
    }

    @Test
    void dependentGangsAreSubmittedWhenTheirParentsFinish() {
        WorkloadJob dag = new WorkloadJob("dag", Queue.DEFAULT, 0,
                ImmutableList.of(new GangSpec("m1", 2, GPU, 10_000), new GangSpec("m2", 1, GPU, 20_000), new GangSpec("r3", 1, GPU, 5_000)),
                dev.muster.graph.JobGraph.builder().node("m1").node("m2").node("r3").edge("m1", "r3").edge("m2", "r3").build());

        RunResult run = run("muster", ONE_NODE_FOUR_GPUS, workload(dag));

        assertThat(byId(run).get("dag").completedMillis()).isEqualTo(25_000);
        assertThat(run.gangs()).extracting(gang -> gang.gang() + "@" + gang.submittedMillis()).containsExactlyInAnyOrder("m1@0", "m2@0", "r3@20000");
    }

    @Test
    void jobsThatCanNeverFitAreCountedUpFront() {
        Workload workload = workload(job("huge", 0, new GangSpec("main", 2, GPU.multiply(4), 1_000)), job("small", 0, new GangSpec("main", 1, GPU, 1_000)));

        RunResult run = run("muster", ONE_NODE_FOUR_GPUS, workload);

        assertThat(run.unschedulable()).singleElement().asString().startsWith("huge: gang main needs");
        assertThat(Summary.of(run).completed()).isEqualTo(1);
        assertThat(Summary.of(run).unschedulable()).isEqualTo(1);
    }

    @Test
    void aGangTheEmptyClusterCannotHoldAtOnceIsCountedUpFront() {
        // given: two 8-GPU nodes; 3 pods of 5 GPUs fit the total (15 of 16) but only one fits a node;
        // 111 one-millicore pods fit one node's cpu but not its limit of 110 pods
        ClusterSpec twoNodes = ClusterSpec.uniform(2, GPU.multiply(8), 16);
        Workload workload = workload(
                job("wide", 0, new GangSpec("main", 3, GPU.multiply(5), 1_000)),
                job("many", 0, new GangSpec("main", 221, Resources.of(1, 1), 1_000)),
                job("fits", 0, new GangSpec("main", 2, GPU.multiply(5), 1_000)));

        // when
        RunResult run = run("muster", twoNodes, workload);

        // then
        assertThat(run.unschedulable()).containsExactlyInAnyOrder(
                "wide: gang main needs 3 pods of (" + GPU.multiply(5) + ") at once; the empty cluster holds at most 2"
                        + " (node pod limits and per-node resources)",
                "many: gang main needs 221 pods of (" + Resources.of(1, 1) + ") at once; the empty cluster holds at most 220"
                        + " (node pod limits and per-node resources)");
        assertThat(Summary.of(run).completed()).isEqualTo(1);
    }

    @Test
    void theSameInputsAndSeedGiveTheSameNumbers() {
        Workload workload = dev.muster.sim.workload.SyntheticWorkload.generate("jobs=25,gpus=1|2|8|16,interval=120,duration=60..600", 7,
                dev.muster.sim.workload.TraceSelection.ALL);
        ClusterSpec cluster = ClusterSpec.uniform(4, GPU.multiply(8), 2);

        for (String policy : new String[] {"baseline", "muster"}) {
            assertThat(Summary.of(run(policy, cluster, workload))).isEqualTo(Summary.of(run(policy, cluster, workload)));
        }
    }

    static RunResult run(String policy, ClusterSpec cluster, Workload workload) {
        PolicySpec spec = PolicySpec.parse(policy, LOADER);
        return new Simulation(policy, spec.newInstance(1), cluster, workload, SimulationOptions.DEFAULTS.withStuckAfterMillis(60_000),
                ProgressListener.NONE).run();
    }

    static WorkloadJob job(String id, long arrivalMillis, GangSpec gang) {
        return WorkloadJob.single(id, Queue.DEFAULT, arrivalMillis, gang);
    }

    static Workload workload(WorkloadJob... jobs) {
        return new Workload("test", Instant.parse("2026-01-01T00:00:00Z"), ImmutableList.copyOf(jobs), ImmutableSortedMap.of(Queue.DEFAULT, 1),
                ImmutableList.of(), 0);
    }

    private static Map<String, JobRecord> byId(RunResult run) {
        return run.jobs().stream().collect(Collectors.toMap(JobRecord::id, Function.identity()));
    }
}
