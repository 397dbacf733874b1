package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.muster.engine.cache.ManifestException;
import dev.muster.engine.cache.ManifestProblem;
import dev.muster.engine.config.ConfigException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code muster what-if}: one scheduling session over a cluster dump, and why each PodGroup waits. */
@Command(
        name = "what-if",
        mixinStandardHelpOptions = true,
        description = {
            "Runs one scheduling session over Kubernetes manifests (files or folders of YAML or JSON,",
            "e.g. kubectl get nodes,pods,podgroups,queues -A -o yaml) and prints the decisions.",
            "Problems in the input are reported on stderr, one per object; the rest is still scheduled.",
            "Exit codes: 0 decided, 2 a path or the configuration cannot be read or used at all."})
public final class WhatIfCommand implements Callable<Integer> {
    enum Output {
        table,
        json
    }

    private final WhatIf whatIf;

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "Scheduler configuration in volcano-scheduler.conf format (default: the built-in one).")
    private Path config;

    @Option(names = "--scheduler-name", paramLabel = "NAME", description = "Schedule pods whose spec.schedulerName is NAME (repeatable; default: muster).")
    private List<String> schedulerNames = List.of();

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", description = "table (default) or json.")
    private Output output = Output.table;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Manifest files or folders.")
    private List<Path> paths;

    @Inject
    public WhatIfCommand(WhatIf whatIf) {
        this.whatIf = requireNonNull(whatIf, "whatIf is null");
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        WhatIf.Outcome outcome;
        try {
            LinkedHashSet<String> names = new LinkedHashSet<>(schedulerNames.isEmpty() ? List.of("muster") : schedulerNames);
            outcome = whatIf.run(paths, Optional.ofNullable(config), names);
        } catch (ConfigException | ManifestException e) {
            err.println(e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        for (ManifestProblem problem : outcome.manifests().problems()) {
            err.println(problem.describeInFile());
        }
        err.flush();
        out.print(switch (output) {
            case table -> WhatIfTable.render(outcome.manifests().snapshot(), outcome.decisions()) + WhatIfTable.workflows(outcome.workflows());
            case json -> WhatIfJson.render(outcome.manifests().snapshot(), outcome.decisions(), outcome.workflows()) + System.lineSeparator();
        });
        out.flush();
        return ExitCodes.OK;
    }
}
