package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Resources;
import dev.muster.sim.DagHints;
import dev.muster.sim.ProgressListener;
import dev.muster.sim.Simulation;
import dev.muster.sim.SimulationOptions;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.policy.BaselinePolicy;
import dev.muster.sim.policy.EnginePolicy;
import dev.muster.sim.policy.SchedulingPolicy;
import dev.muster.sim.workload.DurationEstimates;
import dev.muster.sim.workload.TraceSelection;
import dev.muster.sim.workload.Workload;
import dev.muster.sim.workload.WorkloadSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The inputs and configurations whose decisions {@link DecisionDigestTest} pins, and how one digest
 * line is made: a SHA-256 of the decisions as {@link SessionResult}'s records print them (binds,
 * evictions in order with their reasons, pipelined tasks, every job's phase and reason), so any change
 * to a decision or a reason changes the line.
 */
final class DecisionDigests {
    private static final SchedulerConfigLoader LOADER = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
    private static final Clock SESSION_CLOCK = Clock.fixed(RandomCluster.START.plusSeconds(3600), ZoneOffset.UTC);
    private static final Path TRACES = Path.of("../simulator/src/test/resources/traces");
    private static final long SEED = 1;

    /** One input with one configuration: its digest line and the full text of its decisions. */
    record Scenario(String line, String decisions) {}

    private DecisionDigests() {}

    /**
     * The configurations: Volcano's built-in one ({@code builtin:volcano}, the default until issue 18) with
     * its actions replaced, two written out, and Muster's default. The first keep the digests they had when
     * they were Muster's default: a new default changes no engine decision under them.
     */
    static Map<String, SessionConfig> configs() {
        String builtIn = DefaultSchedulerConfig.volcanoText();
        Map<String, SessionConfig> configs = new LinkedHashMap<>();
        configs.put("alloc", LOADER.parse("alloc", builtIn.replaceFirst("(?m)^actions:.*$", "actions: \"allocate\"")));
        configs.put("full", LOADER.parse("full", builtIn));
        configs.put("evict", LOADER.parse("evict", builtIn.replaceFirst("(?m)^actions:.*$", "actions: \"enqueue, allocate, preempt, reclaim, backfill\"")));
        configs.put("custom", LOADER.parse("custom", """
                actions: "enqueue, allocate, preempt, backfill"
                tiers:
                - plugins:
                  - name: priority
                  - name: gang
                  - name: conformance
                - plugins:
                  - name: drf
                  - name: predicates
                  - name: proportion
                  - name: nodeorder
                    arguments:
                      mostrequested.weight: 2
                      nodeaffinity.weight: 3
                  - name: binpack
                    arguments:
                      binpack.weight: 5
                      binpack.cpu: 2
                      binpack.resources: nvidia.com/gpu
                      binpack.resources.nvidia.com/gpu: 4
                """));
        configs.put("strategy", LOADER.parse("strategy", """
                actions: "allocate, backfill"
                tiers:
                - plugins:
                  - name: priority
                  - name: gang
                - plugins:
                  - name: drf
                  - name: predicates
                  - name: proportion
                  - name: resource-strategy-fit
                  - name: nodeorder
                """));
        configs.put("default", LOADER.parse("default", DefaultSchedulerConfig.text()));
        return configs;
    }

    /**
     * One session per input and configuration: the bench's uniform clusters with allocate alone and the
     * custom weights, and eight seeded random clusters with every configuration.
     */
    static Map<String, Supplier<Scenario>> sessions() {
        Map<String, SessionConfig> configs = configs();
        Map<String, Supplier<ClusterSnapshot>> inputs = new LinkedHashMap<>();
        inputs.put("synthetic-200-3000-5", () -> SyntheticCluster.build(200, 3000, 5, 3));
        inputs.put("synthetic-1000-10000-8", () -> SyntheticCluster.build(1000, 10000, 8, 4));
        for (int seed = 1; seed <= 8; seed++) {
            long fixed = seed;
            inputs.put("random-" + seed, () -> RandomCluster.build(fixed, fixed <= 4 ? 60 : 400));
        }
        Map<String, Supplier<Scenario>> scenarios = new LinkedHashMap<>();
        inputs.forEach((input, snapshot) -> configs.forEach((configName, config) -> {
            if (!input.startsWith("synthetic") || configName.equals("alloc") || configName.equals("custom")) {
                scenarios.put(input + " " + configName, () -> session(input, configName, snapshot.get(), config));
            }
        }));
        return scenarios;
    }

    private static Scenario session(String input, String configName, ClusterSnapshot snapshot, SessionConfig config) {
        SessionResult result = Session.run(snapshot, config, SESSION_CLOCK);
        String decisions = result.toString();
        return new Scenario(String.format("%-24s %-8s binds=%d evictions=%d pipelined=%d sha=%s", input, configName,
                result.binds().size(), result.evictions().size(), result.pipelined().size(), sha(decisions)), decisions);
    }

    /**
     * Whole simulations of the simulator's trace fixtures, every cycle's decisions in order, on clusters
     * small enough that jobs queue: 200 Philly jobs on 8 nodes of 8 GPUs with the default, with preempt
     * and reclaim, and with the baseline; the Alibaba DAG sample on three nodes with the default and with
     * the {@code dag} plugin fed exact durations; the first 150 openb pods on 4 GPU nodes with the default and the
     * baseline.
     */
    static Map<String, Supplier<Scenario>> traces() {
        Map<String, SessionConfig> configs = configs();
        SessionConfig dag = LOADER.load(Path.of("../examples/simulate/muster-dag.conf"));
        Workload philly = load("philly:" + TRACES.resolve("philly/philly_2017-10-01_first400.csv"),
                new TraceSelection(Optional.of(LocalDateTime.parse("2017-10-01T00:00:00")), 200, 0.1));
        Workload alibaba = load("alibaba-dag:" + TRACES.resolve("alibaba_v2018_dag/batch_task_50_dag_jobs.csv"), TraceSelection.ALL);
        Workload openb = load("openb:" + TRACES.resolve("openb/openb_pod_list_default_first300.csv"), new TraceSelection(Optional.empty(), 150, 1.0));
        Resources gpuNode = Resources.of(48_000, 448.0 * (1L << 30)).withScalar(Resources.GPU, 8000);
        ClusterSpec eightGpuNodes = ClusterSpec.uniform(8, gpuNode, 8);
        ClusterSpec fourGpuNodes = ClusterSpec.uniform(4, gpuNode, 4);
        ClusterSpec threeCpuNodes = ClusterSpec.uniform(3, Resources.of(96_000, 512.0 * (1L << 30)), 3);
        SimulationOptions plain = SimulationOptions.DEFAULTS;
        SimulationOptions dagHints = plain.withDagHints(new DagHints(DurationEstimates.ORACLE, SEED));

        Map<String, Supplier<Scenario>> scenarios = new LinkedHashMap<>();
        scenarios.put("philly-200 full", () -> simulate("philly-200", "full", philly, eightGpuNodes, engine(configs, "full"), plain));
        scenarios.put("philly-200 evict", () -> simulate("philly-200", "evict", philly, eightGpuNodes, engine(configs, "evict"), plain));
        scenarios.put("philly-200 default", () -> simulate("philly-200", "default", philly, eightGpuNodes, engine(configs, "default"), plain));
        scenarios.put("philly-200 baseline", () -> simulate("philly-200", "baseline", philly, eightGpuNodes, new BaselinePolicy(SEED), plain));
        scenarios.put("alibaba-dag-50 full", () -> simulate("alibaba-dag-50", "full", alibaba, threeCpuNodes, engine(configs, "full"), dagHints));
        scenarios.put("alibaba-dag-50 dag", () -> simulate("alibaba-dag-50", "dag", alibaba, threeCpuNodes, new EnginePolicy(dag), dagHints));
        scenarios.put("openb-150 full", () -> simulate("openb-150", "full", openb, fourGpuNodes, engine(configs, "full"), plain));
        scenarios.put("openb-150 default", () -> simulate("openb-150", "default", openb, fourGpuNodes, engine(configs, "default"), plain));
        scenarios.put("openb-150 baseline", () -> simulate("openb-150", "baseline", openb, fourGpuNodes, new BaselinePolicy(SEED), plain));
        return scenarios;
    }

    private static SchedulingPolicy engine(Map<String, SessionConfig> configs, String name) {
        return new EnginePolicy(configs.get(name));
    }

    private static Workload load(String spec, TraceSelection selection) {
        return WorkloadSpec.parse(spec).load(selection, SEED, 8);
    }

    private static Scenario simulate(String input, String policyName, Workload workload, ClusterSpec cluster, SchedulingPolicy policy,
            SimulationOptions options) {
        Recording recording = new Recording(policy);
        long cycles = new Simulation(policyName, recording, cluster, workload, options, ProgressListener.NONE).run().cycles();
        String decisions = recording.decisions.toString();
        return new Scenario(String.format("%-24s %-8s cycles=%d binds=%d evictions=%d pipelined=%d sha=%s", input, policyName, cycles,
                recording.binds, recording.evictions, recording.pipelined, sha(decisions)), decisions);
    }

    private static String sha(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** A policy that keeps every cycle's decisions, one cycle a line. Not thread-safe, as a simulation's policy need not be. */
    private static final class Recording implements SchedulingPolicy {
        private final SchedulingPolicy policy;
        private final StringBuilder decisions = new StringBuilder();
        private long binds;
        private long evictions;
        private long pipelined;

        Recording(SchedulingPolicy policy) {
            this.policy = requireNonNull(policy, "policy is null");
        }

        @Override
        public SessionResult schedule(ClusterSnapshot snapshot, Clock clock) {
            SessionResult result = policy.schedule(snapshot, clock);
            decisions.append(clock.instant()).append(' ').append(result).append('\n');
            binds += result.binds().size();
            evictions += result.evictions().size();
            pipelined += result.pipelined().size();
            return result;
        }
    }
}
