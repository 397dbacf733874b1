package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.inject.Inject;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code muster bench}: times one allocate cycle over a synthetic cluster with the default plugins. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = {
            "Times one allocate cycle of the default configuration over a synthetic cluster:",
            "NODES nodes of 32 cpu / 128Gi, PODS pending pods of 1 cpu / 2Gi in gangs of GANG."})
public final class BenchCommand implements Callable<Integer> {
    enum Output {
        text,
        json
    }

    private final SchedulerConfigLoader loader;
    private final Clock clock;

    @Spec
    private CommandSpec spec;

    @Option(names = "--nodes", description = "Number of nodes (default: ${DEFAULT-VALUE}).")
    private int nodes = 1000;

    @Option(names = "--pods", description = "Number of pending pods (default: ${DEFAULT-VALUE}).")
    private int pods = 10000;

    @Option(names = "--gang", description = "Pods per gang (default: ${DEFAULT-VALUE}).")
    private int gang = 8;

    @Option(names = "--queues", description = "Number of queues the gangs are spread over (default: ${DEFAULT-VALUE}).")
    private int queues = 4;

    @Option(names = "--config", paramLabel = "FILE", description = "Scheduler configuration to time instead of the default one; its actions are replaced by allocate.")
    private java.nio.file.Path config;

    @Option(names = "--embedded", description = {"Time binding end to end instead: through the embedded API server of muster up,",
        "from the scheduler's start until a watch has seen every pod bound (--queues is not used)."})
    private boolean embedded;

    @Option(names = {"-o", "--output"}, description = "text (default) or json.")
    private Output output = Output.text;

    @Inject
    public BenchCommand(SchedulerConfigLoader loader, Clock clock) {
        this.loader = requireNonNull(loader, "loader is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public Integer call() throws Exception {
        if (nodes < 1 || pods < 0 || gang < 1 || queues < 1) {
            spec.commandLine().getErr().println("muster bench: --nodes, --gang and --queues must be positive, --pods not negative");
            return ExitCodes.BAD_INPUT;
        }
        String source = config == null ? DefaultSchedulerConfig.SOURCE : config.toString();
        String original = config == null ? DefaultSchedulerConfig.text() : java.nio.file.Files.readString(config);
        SessionConfig sessionConfig = loader.parse(source, original.replaceFirst("(?m)^actions:.*$", "actions: \"allocate\""));
        if (embedded) {
            return EmbeddedBenchReport.print(new EmbeddedBench(new SchedulerConfigText(source, original), java.time.Duration.ofMillis(100), clock)
                    .run(nodes, pods, gang, java.time.Duration.ofMinutes(10)), gang, output == Output.json, spec.commandLine().getOut());
        }
        ClusterSnapshot snapshot = SyntheticCluster.build(nodes, pods, gang, queues);
        long start = System.nanoTime();
        SessionResult result = Session.run(snapshot, sessionConfig, clock);
        double seconds = (System.nanoTime() - start) / 1e9;
        ObjectNode json = new ObjectMapper().createObjectNode();
        json.put("nodes", nodes);
        json.put("pods", pods);
        json.put("bound", result.binds().size());
        json.put("seconds", Math.round(seconds * 1000) / 1000.0);
        json.put("podsPerSecond", Math.round(result.binds().size() / Math.max(seconds, 1e-9)));
        PrintWriter out = spec.commandLine().getOut();
        if (output == Output.json) {
            out.println(json);
        } else {
            out.printf(Locale.ROOT, "%d nodes, %d pending pods in gangs of %d: bound %d in %.3f s (%d pods/s)%n",
                    nodes, pods, gang, result.binds().size(), seconds, json.get("podsPerSecond").asLong());
        }
        out.flush();
        return ExitCodes.OK;
    }
}
