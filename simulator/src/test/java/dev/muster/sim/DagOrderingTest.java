package dev.muster.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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

/**
 * The {@code dag} plugin (in the default configuration) on the simulator: with the DAG hints a workflow
 * controller writes, the critical stage of a pipeline goes first within it and the pipeline expected to
 * end soonest goes first among pipelines; without them, creation order.
 */
class DagOrderingTest {
    private static final SchedulerConfigLoader LOADER = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
    private static final Resources CORE = Resources.of(1000, 1 << 30);
    private static final ClusterSpec EIGHT_CORES = ClusterSpec.uniform(1, CORE.multiply(8), 16);
    private static final DagHints ORACLE = new DagHints(DurationEstimates.ORACLE, 1);
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    /**
     * One node of 8 cores. A blocker holds all 8 from 0 to 10 s. A pipeline arrives at 1 s with two
     * independent stages, report (4 cores, 10 s) and train (8 cores, 10 s), and evaluate (4 cores,
     * 100 s) after train. When the blocker ends, only one of report and train fits. In creation order
     * (the names' order, as both are created at once) report goes first (10-20 s), train waits for it
     * (20-30 s) and evaluate ends at 130 s. By critical path train (110 s left) goes first (10-20 s), then
     * evaluate and report fit together (from 20 s): the pipeline ends at 120 s.
     */
    private static Workload pipelineWithASideStage() {
        WorkloadJob pipeline = new WorkloadJob("pipeline", Queue.DEFAULT, 1_000,
                ImmutableList.of(new GangSpec("report", 4, CORE, 10_000), new GangSpec("train", 8, CORE, 10_000),
                        new GangSpec("evaluate", 4, CORE, 100_000)),
                JobGraph.builder().node("report").node("train").node("evaluate").edge("train", "evaluate").build());
        return new Workload("test", START, ImmutableList.of(WorkloadJob.single("blocker", Queue.DEFAULT, 0, new GangSpec("main", 8, CORE, 10_000)),
                pipeline), ImmutableSortedMap.of(Queue.DEFAULT, 1), ImmutableList.of(), 0);
    }

    /**
     * One node of 8 cores, held by a blocker from 0 to 10 s. A long pipeline (head: 8 cores, 100 s, then
     * tail: 8 cores, 10 s) arrives at 1 s, a short one (one stage of 8 cores, 10 s) at 2 s. In creation
     * order the long pipeline's head goes first (10-110 s), the short pipeline runs after it (110-120 s)
     * and the tail last (120-130 s): completion times 129 s and 118 s. Shortest pipeline first: short
     * 10-20 s (18 s), then the long one 20-130 s (129 s).
     */
    private static Workload longAndShortPipelines() {
        WorkloadJob longPipeline = new WorkloadJob("long", Queue.DEFAULT, 1_000,
                ImmutableList.of(new GangSpec("head", 8, CORE, 100_000), new GangSpec("tail", 8, CORE, 10_000)),
                JobGraph.builder().node("head").node("tail").edge("head", "tail").build());
        return new Workload("test", START, ImmutableList.of(WorkloadJob.single("blocker", Queue.DEFAULT, 0, new GangSpec("main", 8, CORE, 10_000)),
                longPipeline, WorkloadJob.single("short", Queue.DEFAULT, 2_000, new GangSpec("main", 8, CORE, 10_000))),
                ImmutableSortedMap.of(Queue.DEFAULT, 1), ImmutableList.of(), 0);
    }

    @Test
    void withoutHintsTheSideStageGoesFirstInCreationOrder() {
        RunResult fifo = run(pipelineWithASideStage(), SimulationOptions.DEFAULTS);

        assertThat(firstRun(fifo, "pipeline", "report")).isLessThan(firstRun(fifo, "pipeline", "train"));
        assertThat(Summary.of(fifo).makespanSeconds()).isEqualTo(130);
    }

    @Test
    void withHintsThePipelinesCriticalStageGoesFirstAndThePipelineEndsSooner() {
        RunResult dag = run(pipelineWithASideStage(), SimulationOptions.DEFAULTS.withDagHints(ORACLE));

        assertThat(firstRun(dag, "pipeline", "train")).isLessThan(firstRun(dag, "pipeline", "report"));
        assertThat(Summary.of(dag).completed()).isEqualTo(2);
        assertThat(Summary.of(dag).makespanSeconds()).isEqualTo(120);
    }

    @Test
    void withHintsTheShorterPipelineGoesFirstAndTheAverageCompletionFalls() {
        RunResult fifo = run(longAndShortPipelines(), SimulationOptions.DEFAULTS);
        RunResult dag = run(longAndShortPipelines(), SimulationOptions.DEFAULTS.withDagHints(ORACLE));

        assertThat(firstRun(fifo, "long", "head")).isLessThan(firstRun(fifo, "short", "main"));
        assertThat(firstRun(dag, "short", "main")).isLessThan(firstRun(dag, "long", "head"));
        // the blocker's 10 s alike; the two pipelines' 129 + 118 s become 129 + 18 s
        assertThat(Summary.of(fifo).avgJctSeconds()).isEqualTo((10 + 129 + 118) / 3.0, within(0.01));
        assertThat(Summary.of(dag).avgJctSeconds()).isEqualTo((10 + 18 + 129) / 3.0, within(0.01));
    }

    @Test
    void theSameSeedGivesTheSameNumbersWithNoisyEstimates() {
        Workload sample = AlibabaDagLoader.load(Path.of("src/test/resources/traces/alibaba_v2018_dag/batch_task_50_dag_jobs.csv"),
                new TraceSelection(Optional.empty(), 10, 0.01), AlibabaDagLoader.DEFAULT_MAX_GANG_SIZE);
        // Four nodes hold every gang of these jobs (at most 256 pods, 110 per node).
        ClusterSpec small = ClusterSpec.uniform(4, Resources.of(96_000, AlibabaDagLoader.NODE_MEMORY), 2);
        SimulationOptions options = SimulationOptions.DEFAULTS.withDagHints(new DagHints(DurationEstimates.lognormal(1), 5));
        PolicySpec dag = new PolicySpec("dag", Optional.of(LOADER.parse(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text())));

        Summary first = Summary.of(new Simulation("dag", dag.newInstance(5), small, sample, options, ProgressListener.NONE).run());
        Summary second = Summary.of(new Simulation("dag", dag.newInstance(5), small, sample, options, ProgressListener.NONE).run());

        assertThat(first.completed()).isPositive().isEqualTo(first.jobs() - first.unschedulable());
        assertThat(second).isEqualTo(first);
    }

    /** The workload under the default configuration. */
    private static RunResult run(Workload workload, SimulationOptions options) {
        EnginePolicy policy = new EnginePolicy(LOADER.parse(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text()));
        return new Simulation("default", policy, EIGHT_CORES, workload, options, ProgressListener.NONE).run();
    }

    private static long firstRun(RunResult run, String job, String gang) {
        GangRecord record = run.gangs().stream().filter(candidate -> candidate.job().equals(job) && candidate.gang().equals(gang))
                .findFirst().orElseThrow();
        assertThat(record.firstRunMillis()).as("%s/%s ran", job, gang).isNotNegative();
        return record.firstRunMillis();
    }
}
