package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.muster.embedded.NodePool;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code muster demo}: starts what {@code muster up} starts and plays a scenario on it, narrating. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Starts an embedded cluster (as muster up does) of 4 simulated nodes with 8 GPUs each, plays the scenario in",
            "examples/demo (two training gangs that would deadlock if placed pod by pod; a queue that borrows idle GPUs and",
            "gives them back), tells what Muster decides and why as it happens, prints a summary and exits (about a minute).",
            "Exit codes: 0 the scenario played out, 1 it did not finish in time, 2 examples/demo not found."})
public final class DemoCommand implements Callable<Integer> {
    private final Clock clock;

    @Spec
    private CommandSpec spec;

    @Option(names = "--examples", paramLabel = "DIR", description = "The scenario's manifests (default: ${DEFAULT-VALUE}).")
    private Path examples = Path.of("examples/demo");

    @Option(names = "--port", description = "Port of the embedded API server; 0 for any free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Inject
    public DemoCommand(Clock clock) {
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        if (!Files.isDirectory(examples)) {
            spec.commandLine().getErr().println("muster demo: " + examples + " not found; run it from the repository root");
            return ExitCodes.BAD_INPUT;
        }
        EmbeddedCluster.Options options = new EmbeddedCluster.Options(port, List.of(NodePool.parse(DemoScript.NODES)), Optional.empty(),
                SchedulerConfigText.builtIn(), Duration.ofMillis(200), true);
        out.println("Muster demo: starting a Kubernetes API server, 4 simulated nodes with 8 GPUs each (32 GPUs) and Muster with its");
        out.println("default configuration, all in this process. Pods run for the time in their muster.dev/duration annotation.");
        out.flush();
        boolean played;
        try (EmbeddedCluster cluster = EmbeddedCluster.start(options, clock)) {
            out.println("API server on " + cluster.server().url() + "; nodes " + String.join(", ", cluster.nodes()) + ".");
            played = new DemoScript(cluster.client(), examples, out).play();
        }
        out.println();
        out.println(played
                ? "Try it yourself: ./muster up, then kubectl apply -f examples/up/training.yaml and kubectl get pods -o wide."
                : "The scenario did not finish in time; the machine may be too busy.");
        out.flush();
        return played ? ExitCodes.OK : ExitCodes.FAILURE;
    }
}
