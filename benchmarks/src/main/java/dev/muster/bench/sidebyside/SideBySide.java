package dev.muster.bench.sidebyside;

import com.google.common.base.Splitter;
import com.google.common.base.Ticker;
import com.google.common.collect.ImmutableList;
import dev.muster.peers.ControlPlaneSpec;
import dev.muster.peers.PeerInstaller;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Muster and kube-scheduler side by side on real control planes (issue 17, item 5): for each side in
 * turn, a fresh etcd and kube-apiserver, KWOK's fake nodes, the same pods (in gangs for Muster), then
 * the scheduler started and timed until every pod is bound. Prints one row per side and the ratios.
 * Run it with {@code benchmarks/side-by-side/run}; options and figures in {@code benchmarks/README.md}.
 */
public final class SideBySide {
    private static final Map<String, String> DEFAULTS = Map.of(
            "--nodes", "1000",
            "--pods", "10000",
            "--gang", "8",
            "--sides", "muster,kube-scheduler",
            "--rounds", "1",
            "--concurrency", "16",
            "--timeout-seconds", "900",
            "--kube-scheduler-qps", "100000",
            "--kube-scheduler-burst", "100000",
            "--muster-java-options", "");

    private SideBySide() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        Map<String, String> options = options(args);
        PrintStream out = System.out;
        int nodes = Integer.parseInt(options.get("--nodes"));
        Workload workload = new Workload("default", Integer.parseInt(options.get("--pods")), Integer.parseInt(options.get("--gang")));
        // 32 cpu / 128Gi / 110 pods a node: every pod fits with room, at 10 pods a node for the default shape
        ControlPlaneSpec spec = new ControlPlaneSpec(nodes, "32", "128Gi", 110);
        PeerInstaller installer = PeerInstaller.locate();
        Path repository = installer.script().toAbsolutePath().getParent().getParent();
        Path kubeScheduler = installer.install(List.of(Side.KUBE_SCHEDULER.label())).get(Side.KUBE_SCHEDULER.label()).executable();
        Schedulers schedulers = new Schedulers(repository, kubeScheduler,
                Splitter.on(' ').omitEmptyStrings().splitToList(options.get("--muster-java-options")),
                Integer.parseInt(options.get("--kube-scheduler-qps")), Integer.parseInt(options.get("--kube-scheduler-burst")));
        if (!Files.isRegularFile(schedulers.cliJar())) {
            throw new IllegalStateException("no " + schedulers.cliJar() + ": build it first (./mvnw -B -o -pl cli,benchmarks -am package -DskipTests)");
        }
        List<Side> sides = Splitter.on(',').splitToList(options.get("--sides")).stream().map(Side::parse).toList();
        SideRun run = new SideRun(installer, schedulers, spec, workload, Integer.parseInt(options.get("--concurrency")),
                Duration.ofSeconds(Long.parseLong(options.get("--timeout-seconds"))), Ticker.systemTicker(), Clock.systemUTC(), out);
        Path logs = Files.createTempDirectory("muster-side-by-side-");
        out.printf("side by side: %d nodes, %d pods in gangs of %d for Muster, logs in %s%n", nodes, workload.pods(), workload.gang(), logs);
        List<SideResult> results = new ArrayList<>();
        int rounds = Integer.parseInt(options.get("--rounds"));
        for (int round = 1; round <= rounds; round++) {
            for (Side side : sides) {
                SideResult result = run.run(side, logs.resolve("round-" + round).resolve(side.label()));
                out.println(SideResult.HEADER);
                out.println(result.row());
                results.add(result);
            }
        }
        print(results, out);
    }

    private static void print(List<SideResult> results, PrintStream out) {
        out.println();
        out.println(SideResult.HEADER);
        results.forEach(result -> out.println(result.row()));
        // each round's Muster row against the same round's kube-scheduler row
        List<SideResult> muster = results.stream().filter(result -> result.side() == Side.MUSTER).toList();
        List<SideResult> kubeScheduler = results.stream().filter(result -> result.side() == Side.KUBE_SCHEDULER).toList();
        for (int index = 0; index < Math.min(muster.size(), kubeScheduler.size()); index++) {
            out.println("round " + (index + 1) + " " + SideResult.ratios(muster.get(index), kubeScheduler.get(index)));
        }
    }

    static Map<String, String> options(String[] args) {
        return options(args, DEFAULTS, "run");
    }

    /** Each {@code --name value} pair over {@code defaults}; a name not in them, or one without a value, is refused. */
    static Map<String, String> options(String[] args, Map<String, String> defaults, String program) {
        Map<String, String> options = new HashMap<>(defaults);
        List<String> arguments = ImmutableList.copyOf(args);
        for (int index = 0; index < arguments.size(); index += 2) {
            String name = arguments.get(index);
            if (!defaults.containsKey(name) || index + 1 == arguments.size()) {
                throw new IllegalArgumentException("usage: " + program + " [OPTION VALUE]...; options and defaults: " + defaults);
            }
            options.put(name, arguments.get(index + 1));
        }
        return options;
    }
}
