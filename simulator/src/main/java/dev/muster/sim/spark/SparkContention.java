package dev.muster.sim.spark;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import dev.muster.sim.SimulationException;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.policy.BaselinePolicy;
import dev.muster.sim.policy.EnginePolicy;
import dev.muster.sim.policy.SchedulingPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the Spark workload under contention for five policies and prints a Markdown table:
 * {@code baseline} (the default kube-scheduler model), {@code volcano} (Muster's built-in,
 * Volcano-compatible configuration, whose PodGroups have {@code minMember: 1} and the application's
 * {@code minResources}), {@code reservation} (the same with the {@code executorreservation} plugin),
 * {@code default} (Muster's default configuration) and {@code default+reservation} (the default with
 * the plugin in its first tier). {@code --policies} runs only the named ones, comma-separated;
 * {@code --dynamic-allocation 1} gives every application dynamic allocation ({@link SparkWorkload}).
 *
 * <pre>java -cp ... dev.muster.sim.spark.SparkContention [--apps 60] [--window 600] [--nodes 8] [--gang-ratio 1] [--seed 1]
 *     [--dynamic-allocation 0] [--policies volcano,default+reservation]</pre>
 */
public final class SparkContention {
    static final String RESERVATION_CONF = "muster-executor-reservation.conf";
    static final String DEFAULT_RESERVATION_CONF = "muster-default-executor-reservation.conf";
    private static final double GIB = 1024.0 * 1024 * 1024;
    static final Resources NODE = Resources.of(16_000, 64 * GIB);
    static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
    static final long STARVED_AFTER_MILLIS = 600_000;

    private SparkContention() {}

    public static void main(String[] args) {
        Map<String, Double> options = new LinkedHashMap<>();
        options.put("--apps", 60.0);
        options.put("--window", 600.0);
        options.put("--nodes", 8.0);
        options.put("--gang-ratio", 1.0);
        options.put("--seed", 1.0);
        options.put("--dynamic-allocation", 0.0);
        List<String> only = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--policies") && i + 1 < args.length) {
                only.addAll(List.of(args[++i].split(",")));
                continue;
            }
            if (!options.containsKey(args[i]) || i + 1 >= args.length) {
                throw new SimulationException("unknown or incomplete option '" + args[i] + "' (known: " + options.keySet() + ", each with a number)");
            }
            try {
                options.put(args[i], Double.parseDouble(args[++i]));
            } catch (NumberFormatException e) {
                throw new SimulationException("option " + args[i - 1] + ": '" + args[i] + "' is not a number", e);
            }
        }
        long seed = options.get("--seed").longValue();
        SchedulerConfigLoader loader = Guice.createInjector(new EngineModule()).getInstance(SchedulerConfigLoader.class);
        ImmutableList<SparkAppSpec> workload = SparkWorkload.generate(options.get("--apps").intValue(),
                (long) (options.get("--window") * 1000), options.get("--gang-ratio"), options.get("--dynamic-allocation") != 0, seed);
        ImmutableSortedMap<NodeName, ClusterNode> nodes = ClusterSpec.uniform(options.get("--nodes").intValue(), NODE, 8).nodes();
        PrintStream out = System.out;
        out.printf("%d applications over %.0f s, %d nodes of %s, %s, seed %d%n%n", workload.size(), options.get("--window"),
                nodes.size(), NODE, options.get("--dynamic-allocation") != 0
                        ? "dynamic allocation (initial " + SparkWorkload.DYNAMIC_INITIAL + ", min " + SparkWorkload.DYNAMIC_MIN + ")"
                        : String.format("gang ratio %.2f", options.get("--gang-ratio")), seed);
        out.println("| policy | completed | avg JCT s | p95 JCT s | deadlocked | starved | executor-s wasted waiting | driver-s idle | end s |");
        out.println("|---|---|---|---|---|---|---|---|---|");
        Map<String, SchedulingPolicy> policies = new LinkedHashMap<>();
        policies.put("baseline", new BaselinePolicy(seed));
        policies.put("volcano", new EnginePolicy(volcano(loader)));
        policies.put("reservation", new EnginePolicy(reservation(loader)));
        policies.put("default", new EnginePolicy(loader.parse(DefaultSchedulerConfig.SOURCE, DefaultSchedulerConfig.text())));
        policies.put("default+reservation", new EnginePolicy(defaultWithReservation(loader)));
        if (!only.isEmpty()) {
            if (!policies.keySet().containsAll(only)) {
                throw new SimulationException("--policies " + String.join(",", only) + ": known policies are " + policies.keySet());
            }
            policies.keySet().retainAll(only);
        }
        for (Map.Entry<String, SchedulingPolicy> policy : policies.entrySet()) {
            SparkRunResult result = new SparkSimulation(policy.getValue(), nodes, workload, EPOCH, STARVED_AFTER_MILLIS).run();
            out.printf("| %s | %d | %,.0f | %,.0f | %d | %d | %,.0f | %,.0f | %,.0f |%n", policy.getKey(), result.completed(),
                    result.averageJctSeconds(), result.p95JctSeconds(), result.deadlocked(), result.starved(), result.wastedExecutorSeconds(),
                    result.idleDriverSeconds(), result.endSeconds());
        }
    }

    static SessionConfig volcano(SchedulerConfigLoader loader) {
        return loader.parse(DefaultSchedulerConfig.VOLCANO_SOURCE, DefaultSchedulerConfig.volcanoText());
    }

    static SessionConfig reservation(SchedulerConfigLoader loader) {
        return resource(loader, RESERVATION_CONF);
    }

    static SessionConfig defaultWithReservation(SchedulerConfigLoader loader) {
        return resource(loader, DEFAULT_RESERVATION_CONF);
    }

    private static SessionConfig resource(SchedulerConfigLoader loader, String name) {
        try (InputStream stream = SparkContention.class.getResourceAsStream(name)) {
            if (stream == null) {
                throw new IllegalStateException("BUG: " + name + " is missing from the classpath");
            }
            return loader.parse(name, new String(stream.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
