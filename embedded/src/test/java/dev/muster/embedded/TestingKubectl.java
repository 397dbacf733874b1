package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The real kubectl ({@code /usr/bin/kubectl}) run as a process against a kubeconfig, its output
 * collected line by line as it prints, for tests that assert what a user of the embedded server sees.
 */
final class TestingKubectl implements AutoCloseable {
    static final String KUBECTL = "/usr/bin/kubectl";

    private final Process process;
    private final List<String> output = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private TestingKubectl(Process process) {
        this.process = requireNonNull(process, "process is null");
        this.reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    output.add(line);
                }
            } catch (IOException e) {
                output.add("(output failed: " + e.getMessage() + ")");
            }
        }, "kubectl-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code kubectl ARGS...} against the kubeconfig; standard error is merged into the output. Its discovery
     * cache is a new directory each time: kubectl keeps one per host and port for ten minutes, and a port one test's
     * server had is another's next, whose groups differ.
     */
    static TestingKubectl start(Path kubeconfig, String... arguments) {
        try {
            Path cache = Files.createTempDirectory("muster-kubectl-cache-");
            List<String> command = new ArrayList<>(List.of(KUBECTL, "--kubeconfig", kubeconfig.toString(), "--cache-dir", cache.toString()));
            command.addAll(List.of(arguments));
            return new TestingKubectl(new ProcessBuilder(command).redirectErrorStream(true).start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code kubectl ARGS...} to its end (at most a minute) and answers what it printed. */
    static Result run(Path kubeconfig, String... arguments) throws InterruptedException {
        try (TestingKubectl kubectl = start(kubeconfig, arguments)) {
            return kubectl.waitFor();
        }
    }

    /** Waits for this kubectl to end (at most a minute) and answers what it printed. */
    Result waitFor() throws InterruptedException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("kubectl did not finish: " + output);
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        return new Result(process.exitValue(), String.join("\n", output));
    }

    /** What it has printed so far, one entry per line. */
    List<String> output() {
        return List.copyOf(output);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** What a finished kubectl printed, and its exit code. */
    record Result(int exitCode, String output) {}

    @Override
    public void close() {
        process.destroy();
    }
}
