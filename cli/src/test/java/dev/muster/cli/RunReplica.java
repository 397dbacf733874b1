package dev.muster.cli;

import com.google.inject.Guice;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.SchedulerConfigLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine;

/**
 * One {@code muster run} in this JVM, on a thread of its own, as one replica of a Deployment would run;
 * read through its {@code /metrics}, stopped by an interrupt as SIGTERM would stop it.
 */
final class RunReplica {
    private static final SchedulerConfigLoader LOADER =
            Guice.createInjector(new EngineModule(), new CliModule()).getInstance(SchedulerConfigLoader.class);

    private final Thread thread;
    private final int metricsPort;
    private final StringWriter err = new StringWriter();
    private final AtomicInteger exitCode = new AtomicInteger(-1);

    private RunReplica(Path kubeconfig, int metricsPort, List<String> options) {
        this.metricsPort = metricsPort;
        List<String> args = new ArrayList<>(List.of("--kubeconfig", kubeconfig.toString(), "--period", "100ms",
                "--metrics-port", String.valueOf(metricsPort)));
        args.addAll(options);
        CommandLine line = new CommandLine(new RunCommand(LOADER, Clock.systemUTC()));
        line.setErr(new PrintWriter(err, true));
        this.thread = new Thread(() -> exitCode.set(line.execute(args.toArray(String[]::new))), "muster-run-" + metricsPort);
    }

    /** Starts {@code muster run --kubeconfig FILE} with these further options. */
    static RunReplica start(Path kubeconfig, String... options) {
        RunReplica replica = new RunReplica(kubeconfig, freePort(), List.of(options));
        replica.thread.start();
        return replica;
    }

    /** Stops it as SIGTERM would and waits; returns its exit code. */
    int stop(Duration wait) throws InterruptedException {
        thread.interrupt();
        thread.join(wait.toMillis());
        return exitCode.get();
    }

    boolean isRunning() {
        return thread.isAlive();
    }

    /** What it printed on stderr so far (not its log, which goes to the JVM's stderr). */
    synchronized String stderr() {
        return err.toString();
    }

    /** The sum of a metric's samples (of every label set), or -1 while /metrics does not answer. */
    double metric(String name) {
        return MetricsScrape.sum(metricsPort, name, Duration.ofSeconds(5));
    }

    boolean isLeading() {
        return metric("muster_leader") == 1;
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
