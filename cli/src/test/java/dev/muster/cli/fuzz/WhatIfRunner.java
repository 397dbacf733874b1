package dev.muster.cli.fuzz;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.cli.WhatIf;
import dev.muster.cli.WhatIfCommand;
import dev.muster.engine.cache.ManifestReader;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.Task;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;

/**
 * Runs {@code muster what-if} in this JVM on one input: the real command class, parsed by picocli, with
 * an execution-exception handler that records whatever escapes it (in {@code main} that becomes exit 1
 * and {@code muster: <message>}). Not thread-safe: one cluster file and one configuration file, rewritten
 * for each input.
 */
final class WhatIfRunner {
    static final ImmutableSet<String> SCHEDULER_NAMES = ImmutableSet.of("volcano", "muster");

    private final WhatIf whatIf;
    private final Path clusterFile;
    private final Path configFile;
    private final Map<String, ImmutableSet<String>> baseKeys = new HashMap<>();
    private final Map<String, ImmutableMap<String, Task>> baseTasks = new HashMap<>();

    WhatIfRunner(WhatIf whatIf, Path folder) {
        this.whatIf = requireNonNull(whatIf, "whatIf is null");
        this.clusterFile = folder.resolve("cluster.yaml");
        this.configFile = folder.resolve("scheduler.conf");
    }

    record Run(int exitCode, String stdout, String stderr, Optional<String> escaped) {}

    Path clusterFile() {
        return clusterFile;
    }

    Path configFile() {
        return configFile;
    }

    Run run(byte[] cluster, Optional<byte[]> config) {
        try {
            Files.write(clusterFile, cluster);
            List<String> args = new ArrayList<>(List.of("-o", "json"));
            SCHEDULER_NAMES.forEach(name -> args.addAll(List.of("--scheduler-name", name)));
            if (config.isPresent()) {
                Files.write(configFile, config.get());
                args.addAll(List.of("--config", configFile.toString()));
            }
            args.add(clusterFile.toString());
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicReference<String> escaped = new AtomicReference<>();
            CommandLine line = new CommandLine(new WhatIfCommand(whatIf));
            line.setOut(new PrintWriter(out, true));
            line.setErr(new PrintWriter(err, true));
            line.setExecutionExceptionHandler((exception, commandLine, parseResult) -> {
                escaped.set(exception.toString());
                return 1;
            });
            int exitCode = line.execute(args.toArray(String[]::new));
            return new Run(exitCode, out.toString(), err.toString(), Optional.ofNullable(escaped.get()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the reader kept of the unmutated base, as {@link ObjectKeys}. */
    ImmutableSet<String> baseKeys(FuzzBase base) {
        return baseKeys.computeIfAbsent(base.name(), name -> ObjectKeys.of(baseSnapshot(base)));
    }

    /** The unmutated base's pods, by {@code ns/name}. */
    ImmutableMap<String, Task> baseSnapshotTasks(FuzzBase base) {
        return baseTasks.computeIfAbsent(base.name(), name -> {
            ClusterSnapshot snapshot = baseSnapshot(base);
            Map<String, Task> tasks = new HashMap<>();
            for (Job job : snapshot.jobs().values()) {
                job.tasks().forEach(task -> tasks.put(task.id().toString(), task));
            }
            snapshot.otherTasks().forEach(task -> tasks.put(task.id().toString(), task));
            return ImmutableMap.copyOf(tasks);
        });
    }

    private static ClusterSnapshot baseSnapshot(FuzzBase base) {
        return new ManifestReader(SCHEDULER_NAMES).read(base.name() + ".yaml", FuzzBase.join(base.documents())).snapshot();
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
