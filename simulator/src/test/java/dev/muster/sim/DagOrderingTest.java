package dev.muster.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.Resources;
import dev.muster.graph.JobGraph;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.metrics.GangRecord;
import dev.muster.sim.metrics.RunResult;
import dev.muster.sim.metrics.Summary;
import dev.muster.sim.policy.EnginePolicy;
import dev.muster.sim.policy.PolicySpec;
import dev.muster.sim.workload.AlibabaDagLoader;
import dev.muster.sim.workload.DurationEstimates;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.TraceSelection;
import dev.muster.sim.workload.Workload;
import dev.muster.sim.workload.WorkloadJob;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The {@code dag} plugin on the simulator: critical-path order against Muster's default (creation order). */
class DagOrderingTest {
    private static final SchedulerConfigLoader LOADER = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
    /** The default configuration with {@code dag} after {@code gang}, as {@code examples/simulate/muster-dag.conf}. */
    private static final String DAG_CONFIG = DefaultSchedulerConfig.text().replace("  - name: conformance\n", "  - name: conformance\n  - name: dag\n");
    private static final Resources CORE = Resources.of(1000, 1 << 30);
    private static final ClusterSpec EIGHT_CORES = ClusterSpec.uniform(1, CORE.multiply(8), 16);
    private static final DagHints ORACLE = new DagHints(DurationEstimates.ORACLE, 1);

    /**
     * One node of 8 cores. A blocker holds all 8 from 0 to 10 s. A side job (4 cores, 10 s) arrives
     * at 1 s; a chain (head: 8 cores, 10 s, then tail: 4 cores, 100 s) at 2 s. When the blocker ends,
     * only one of side and head fits. In creation order the side job goes first (10-20 s), the head
     * waits for it (20-30 s) and the tail ends at 130 s. By critical path the head (110 s left) goes
     * first (10-20 s), then tail and side fit together (from 20 s): the last job ends at 120 s.
     */
    private static Workload sideStageAndLongChain() {
        WorkloadJob chain = new WorkloadJob("chain", Queue.DEFAULT, 2_000,
                ImmutableList.of(new GangSpec("head", 8, CORE, 10_000), new GangSpec("tail", 4, CORE, 100_000)),
                JobGraph.builder().node("head").node("tail").edge("head", "tail").build());
        return new Workload("test", Instant.parse("2026-01-01T00:00:00Z"), ImmutableList.of(
                WorkloadJob.single("blocker", Queue.DEFAULT, 0, new GangSpec("main", 8, CORE, 10_000)),
                WorkloadJob.single("side", Queue.DEFAULT, 1_000, new GangSpec("main", 4, CORE, 10_000)),
                chain), ImmutableSortedMap.of(Queue.DEFAULT, 1), ImmutableList.of(), 0);
    }

    @Test
    void creationOrderStartsTheSideStageFirst() {
        RunResult fifo = run(new EnginePolicy(LOADER.parse(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text())), sideStageAndLongChain());

        assertThat(firstRun(fifo, "side", "main")).isLessThan(firstRun(fifo, "chain", "head"));
    }

    @Test
    void criticalPathOrderStartsTheLongChainFirstAndFinishesSooner() {
        Workload workload = sideStageAndLongChain();
        RunResult fifo = run(new EnginePolicy(LOADER.parse(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text())), workload);

        RunResult dag = run(new EnginePolicy(LOADER.parse("dag.conf", DAG_CONFIG)), workload);

        assertThat(firstRun(dag, "chain", "head")).isLessThan(firstRun(dag, "side", "main"));
        assertThat(Summary.of(dag).completed()).isEqualTo(3);
        assertThat(Summary.of(dag).makespanSeconds()).isLessThan(Summary.of(fifo).makespanSeconds());
        assertThat(Summary.of(fifo).makespanSeconds()).isEqualTo(130);
        assertThat(Summary.of(dag).makespanSeconds()).isEqualTo(120);
    }

    @Test
    void withoutAnnotationsTheDagPluginKeepsCreationOrder() {
        RunResult run = new Simulation("dag", new EnginePolicy(LOADER.parse("dag.conf", DAG_CONFIG)), EIGHT_CORES, sideStageAndLongChain(),
                SimulationOptions.DEFAULTS, ProgressListener.NONE).run();

        assertThat(firstRun(run, "side", "main")).isLessThan(firstRun(run, "chain", "head"));
    }

    @Test
    void theSameSeedGivesTheSameNumbersWithNoisyEstimates() {
        Workload sample = AlibabaDagLoader.load(Path.of("src/test/resources/traces/alibaba_v2018_dag/batch_task_50_dag_jobs.csv"),
                new TraceSelection(Optional.empty(), 10, 0.01), AlibabaDagLoader.DEFAULT_MAX_GANG_SIZE);
        // Four nodes hold every gang of these jobs (at most 256 pods, 110 per node).
        ClusterSpec small = ClusterSpec.uniform(4, Resources.of(96_000, AlibabaDagLoader.NODE_MEMORY), 2);
        SimulationOptions options = SimulationOptions.DEFAULTS.withDagHints(new DagHints(DurationEstimates.lognormal(1), 5));
        PolicySpec dag = new PolicySpec("dag", Optional.of(LOADER.parse("dag.conf", DAG_CONFIG)));

        Summary first = Summary.of(new Simulation("dag", dag.newInstance(5), small, sample, options, ProgressListener.NONE).run());
        Summary second = Summary.of(new Simulation("dag", dag.newInstance(5), small, sample, options, ProgressListener.NONE).run());

        assertThat(first.completed()).isPositive().isEqualTo(first.jobs() - first.unschedulable());
        assertThat(second).isEqualTo(first);
    }

    private static RunResult run(EnginePolicy policy, Workload workload) {
        return new Simulation("policy", policy, EIGHT_CORES, workload, SimulationOptions.DEFAULTS.withDagHints(ORACLE), ProgressListener.NONE).run();
    }

    private static long firstRun(RunResult run, String job, String gang) {
        GangRecord record = run.gangs().stream().filter(candidate -> candidate.job().equals(job) && candidate.gang().equals(gang))
                .findFirst().orElseThrow();
        assertThat(record.firstRunMillis()).as("%s/%s ran", job, gang).isNotNegative();
        return record.firstRunMillis();
    }
}
