package dev.muster.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@code muster run} as a process of its own, as a replica of a Deployment runs: a JVM started from
 * this test's classpath, its log (stdout and stderr) in a file, read through its {@code /metrics}, paused
 * and resumed with SIGSTOP and SIGCONT, stopped with SIGTERM. A shutdown hook kills it if the test's JVM
 * exits first.
 */
final class RunProcess implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final int metricsPort;
    private final Thread killer;

    private RunProcess(Process process, Path log, int metricsPort) {
        this.process = process;
        this.log = log;
        this.metricsPort = metricsPort;
        this.killer = new Thread(process::destroyForcibly, "muster-run-killer");
        Runtime.getRuntime().addShutdownHook(killer);
    }

    /** Starts {@code muster run --kubeconfig FILE --period 100ms --metrics-port P} with these further options. */
    static RunProcess start(Path kubeconfig, Path log, String... options) {
        int port = RunReplica.freePort();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run",
                "--kubeconfig", kubeconfig.toString(), "--period", "100ms", "--metrics-port", String.valueOf(port)));
        command.addAll(List.of(options));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            return new RunProcess(process, log, port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start muster run: " + command, e);
        }
    }

    long pid() {
        return process.pid();
    }

    /** SIGSTOP: every thread stops at once, as a node's freeze or a long GC pause stops them. */
    void pause() {
        signal("STOP");
    }

    /** SIGCONT. */
    void resume() {
        signal("CONT");
    }

    /** SIGKILL, as a crash or an OOM kill ends it: nothing runs after it, the lease is not released. */
    void kill() throws InterruptedException {
        signal("KILL");
        process.waitFor();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** What it logged so far. */
    String log() {
        try {
            return Files.readString(log, UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The log lines that contain {@code text}. */
    List<String> logLines(String text) {
        return log().lines().filter(line -> line.contains(text)).toList();
    }

    /** The sum of a metric's samples (of every label set), or -1 while /metrics does not answer. */
    double metric(String name) {
        return MetricsScrape.sum(metricsPort, name, Duration.ofSeconds(2));
    }

    boolean isLeading() {
        return metric("muster_leader") == 1;
    }

    /** SIGTERM (after SIGCONT, should it be paused), then SIGKILL if it has not exited 30 s later. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            resume();
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killer);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook kills it anyway
        }
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed: "
                        + new String(kill.getInputStream().readAllBytes(), UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal, e);
        }
    }
}
