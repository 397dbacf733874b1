package dev.muster.bench;

import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One allocate cycle of a built-in configuration, its actions reduced to allocate as {@code muster
 * bench} does, over a synthetic cluster of {@code shape} = NODES/PODS, pods in gangs of 8 over 4
 * queues. {@code config} is {@code default} (Muster's default: priority, gang; placeable,
 * shortestfirst, dag, drf, predicates, proportion, conformance, nodeorder, binpack) or
 * {@value DefaultSchedulerConfig#VOLCANO_NAME} (Volcano's Helm default), so one run compares what the
 * default's extra plugins cost. The snapshot is immutable and built once per trial; every invocation
 * is a whole new {@link Session#run}. Single shot: a cycle at 10,000 nodes takes seconds, and the
 * scheduler runs each cycle once; the warm-up lets the JIT settle, so the measured cycles are the
 * steady state.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"})
public class AllocateCycleBenchmark {
    @Param({"1000/10000", "5000/50000", "10000/100000"})
    public String shape;

    @Param("8")
    public int gang;

    @Param({"default", DefaultSchedulerConfig.VOLCANO_NAME})
    public String config;

    private ClusterSnapshot snapshot;
    private SessionConfig sessionConfig;
    private Clock clock;
    private int lastBound = -1;

    @Setup(Level.Trial)
    public void buildSnapshot() {
        SyntheticCluster cluster = SyntheticCluster.parse(shape, gang, 4);
        snapshot = cluster.snapshot();
        sessionConfig = switch (config) {
            case "default" -> EngineConfigs.defaultAllocateOnly();
            case DefaultSchedulerConfig.VOLCANO_NAME -> EngineConfigs.volcanoAllocateOnly();
            default -> throw new IllegalArgumentException("config must be default or " + DefaultSchedulerConfig.VOLCANO_NAME + ": " + config);
        };
        clock = Clock.fixed(SyntheticCluster.CREATED.plusSeconds(cluster.gangs()), ZoneOffset.UTC);
    }

    @Benchmark
    public SessionResult allocateCycle() {
        SessionResult result = Session.run(snapshot, sessionConfig, clock);
        lastBound = result.binds().size();
        return result;
    }

    /** The number of binds proves the cycle did the work: every pod fits, so all of them are bound. */
    @TearDown(Level.Trial)
    public void reportBinds() {
        System.out.printf("%n%s in gangs of %d, %s: the last cycle bound %d pods%n", shape, gang, config, lastBound);
    }
}
