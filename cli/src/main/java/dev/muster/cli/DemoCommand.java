package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.muster.engine.cache.ManifestProblem;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code muster demo}: schedules the example cluster once and explains the outcome. The embedded
 * API server and simulated nodes of the full demo come with the Kubernetes runtime (issue 3).
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Schedules the example cluster (examples/what-if) once with the default configuration and explains the decisions.")
public final class DemoCommand implements Callable<Integer> {
    private final WhatIf whatIf;

    @Spec
    private CommandSpec spec;

    @Option(names = "--cluster", paramLabel = "PATH", description = "The cluster to schedule (default: ${DEFAULT-VALUE}).")
    private Path cluster = Path.of("examples/what-if/cluster.yaml");

    @Inject
    public DemoCommand(WhatIf whatIf) {
        this.whatIf = requireNonNull(whatIf, "whatIf is null");
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (!Files.exists(cluster)) {
            spec.commandLine().getErr().println("muster demo: " + cluster + " not found; run it from the repository root");
            return ExitCodes.BAD_INPUT;
        }
        out.println("""
                Muster demo: one scheduling cycle over a small mixed cluster (%s):
                  two 8-GPU nodes tainted for GPU pods, four 32-cpu nodes, queues ml (weight 4),
                  analytics (weight 2) and dev (weight 1, at most 16 cpu), and five gangs.
                A gang starts whole or not at all: no half-placed job holds resources it cannot use.
                """.formatted(cluster));
        WhatIf.Outcome outcome = whatIf.run(List.of(cluster), Optional.empty(), Set.of("muster"));
        for (ManifestProblem problem : outcome.manifests().problems()) {
            out.println("input: " + problem.describe());
        }
        out.print(WhatIfTable.render(outcome.manifests().snapshot(), outcome.decisions()));
        out.println("""
                Each PodGroup that is not ready says why. The same command works on a dump of a real
                cluster: kubectl get nodes,pods,podgroups,queues,priorityclasses -A -o yaml > dump.yaml
                and then ./muster what-if --scheduler-name volcano dump.yaml""");
        out.flush();
        return ExitCodes.OK;
    }
}
