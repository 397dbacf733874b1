package dev.muster.bench;

import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.sim.ProgressListener;
import dev.muster.sim.Simulation;
import dev.muster.sim.SimulationOptions;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.metrics.RunResult;
import dev.muster.sim.policy.PolicySpec;
import dev.muster.sim.workload.TraceSelection;
import dev.muster.sim.workload.Workload;
import dev.muster.sim.workload.WorkloadSpec;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The simulator's own speed: one invocation replays {@value #JOBS} jobs of {@code muster simulate
 * --workload synthetic:...} (Philly-style gangs of 1 to 16 GPUs, 60 s to 1 h, one arrival a minute on
 * average, 4 queues) on the synthetic workload's default cluster (64 nodes of 8 GPUs), from the first
 * arrival until the last job finished. The score is simulated jobs per wall-clock second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(SimulatorBenchmark.JOBS)
@Warmup(iterations = 1, time = 10)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"})
public class SimulatorBenchmark {
    static final int JOBS = 1000;
    private static final long SEED = 42;

    @Param({PolicySpec.MUSTER, PolicySpec.BASELINE})
    public String policy;

    private PolicySpec policySpec;
    private ClusterSpec cluster;
    private Workload workload;
    private long lastCycles = -1;
    private int lastJobs = -1;

    @Setup(Level.Trial)
    public void loadWorkload() {
        SchedulerConfigLoader loader = EngineConfigs.loader();
        policySpec = PolicySpec.parse(policy, loader);
        WorkloadSpec spec = WorkloadSpec.parse("synthetic:jobs=" + JOBS + ",queues=4,interval=60");
        cluster = spec.defaultCluster();
        workload = spec.load(TraceSelection.ALL, SEED, 8);
    }

    @Benchmark
    public RunResult simulate() {
        Simulation simulation = new Simulation(policy, policySpec.newInstance(SEED), cluster, workload, SimulationOptions.DEFAULTS,
                ProgressListener.NONE);
        RunResult result = simulation.run();
        lastCycles = result.cycles();
        lastJobs = result.jobs().size();
        return result;
    }

    /** Shows the run was whole: every job replayed, and how many scheduling cycles that took. */
    @TearDown(Level.Trial)
    public void reportRun() {
        System.out.printf("%n%s: the last run recorded %d of %d jobs in %d scheduling cycles%n", policy, lastJobs, JOBS, lastCycles);
    }
}
