package dev.muster.peers;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real peers a test starts beside the control plane (KWOK, an operator or controller), each a
 * process of its own with its log in a file; {@link #close()} ends each and its descendants, SIGTERM
 * then SIGKILL. A JVM shutdown hook does the same if the JVM exits first.
 */
public final class PeerProcesses implements AutoCloseable {
    private final List<Process> processes = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();
    private final Thread hook = new Thread(this::close, "peer-processes-shutdown");

    public PeerProcesses() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    public synchronized Process start(List<String> command, Map<String, String> environment, Path log) {
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            Process process = builder.start();
            processes.add(process);
            logs.add(log);
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /** The last lines of every peer's log, for a failure message. */
    public synchronized String tails(int lines) {
        StringBuilder text = new StringBuilder();
        for (Path log : logs) {
            text.append(tail(log, lines));
        }
        return text.toString();
    }

    /** The last {@code lines} lines of one log under a {@code --- NAME} heading, or why it cannot be read, for a failure message. */
    public static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log, UTF_8);
            return "--- " + log.getFileName() + "\n" + String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size())) + "\n";
        } catch (IOException e) {
            return "--- " + log + ": " + e + "\n";
        }
    }

    @Override
    public synchronized void close() {
        for (Process process : processes) {
            List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
            tree.add(process.toHandle());
            tree.forEach(ProcessHandle::destroy);
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    tree.forEach(ProcessHandle::destroyForcibly);
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                tree.forEach(ProcessHandle::destroyForcibly);
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down and runs the hook itself
            }
        }
    }
}
