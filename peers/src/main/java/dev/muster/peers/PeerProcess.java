package dev.muster.peers;

import static java.lang.String.format;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.Awaitility;

/**
 * A peer running as a child process, its standard output and error in one log file. Closing it ends
 * its whole process tree.
 *
 * <p>The peer runs under a small bash guard that holds a pipe from this JVM as its standard input:
 * when the JVM goes, however it goes (a SIGKILL runs no shutdown hook), the pipe closes and the guard
 * kills the peer. The guard exits with the peer's exit code, so this process's state is the peer's.
 */
final class PeerProcess implements AutoCloseable {
    static final int LOG_LINES = 40;
    // kube-apiserver stops in about a second; one whose etcd died waits on it until killed
    static final Duration STOP_GRACE = Duration.ofSeconds(5);

    // $1 is where to write the peer's pid, the rest its command line. The watcher is one subshell
    // (read is a builtin), so killing it leaves nothing holding the pipe.
    private static final String GUARD = """
            pid_file="$1"; shift
            "$@" </dev/null & peer=$!
            echo "$peer" > "$pid_file"
            { while read -r _; do :; done; kill -KILL "$peer" 2>/dev/null; } <&0 & watcher=$!
            wait "$peer"; code=$?
            kill "$watcher" 2>/dev/null
            exit "$code"
            """;

    private final String name;
    private final Process guard;
    private final ProcessHandle peer;
    private final Path logFile;

    private PeerProcess(String name, Process guard, ProcessHandle peer, Path logFile) {
        this.name = name;
        this.guard = guard;
        this.peer = peer;
        this.logFile = logFile;
    }

    static PeerProcess start(String name, List<String> command, Path logFile) {
        requireNonNull(name, "name is null");
        requireNonNull(command, "command is null");
        requireNonNull(logFile, "logFile is null");
        Path pidFile = logFile.resolveSibling(name + ".pid");
        try {
            // a peer started again must not be taken for its previous run
            Files.deleteIfExists(pidFile);
        }
        catch (IOException e) {
            throw new PeerException(format("cannot delete %s before starting %s: %s", pidFile, name, e.getMessage()), e);
        }
        List<String> guarded = ImmutableList.<String>builder()
                .add("bash", "-c", GUARD, "peer-guard", pidFile.toString())
                .addAll(command)
                .build();
        Process guard;
        try {
            // standard input stays a pipe from this JVM: it is what the guard watches
            guard = new ProcessBuilder(guarded)
                    .redirectErrorStream(true)
                    // appended, so a peer started again keeps its earlier runs' lines
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
        }
        catch (IOException e) {
            throw new PeerException(format("cannot start %s (%s): %s", name, command.get(0), e.getMessage()), e);
        }
        Awaitility.await(name + " started")
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .ignoreExceptions()
                .failFast(name + " exited at once", () -> !guard.isAlive() && !hasPid(pidFile))
                .until(() -> hasPid(pidFile));
        long pid = readPid(pidFile);
        ProcessHandle peer = ProcessHandle.of(pid).orElse(guard.toHandle());
        return new PeerProcess(name, guard, peer, logFile);
    }

    private static boolean hasPid(Path pidFile) throws IOException {
        return Files.isRegularFile(pidFile) && Files.readString(pidFile, UTF_8).endsWith("\n");
    }

    private static long readPid(Path pidFile) {
        try {
            return Long.parseLong(Files.readString(pidFile, UTF_8).trim());
        }
        catch (IOException | NumberFormatException e) {
            throw new PeerException("BUG: the peer guard wrote no pid to " + pidFile, e);
        }
    }

    String name() {
        return name;
    }

    /** The peer's own process id (not its guard's). */
    long pid() {
        return peer.pid();
    }

    /** The peer's own process, for fault injection: a signal sent to it reaches the peer itself. */
    ProcessHandle handle() {
        return peer;
    }

    /** Closes the pipe the guard watches, as the JVM's death would. */
    void closeGuardPipe() throws IOException {
        guard.getOutputStream().close();
    }

    boolean isAlive() {
        return guard.isAlive();
    }

    Path logFile() {
        return logFile;
    }

    /** The last lines the peer wrote, for a failure message. */
    List<String> lastLogLines(int count) {
        try {
            List<String> lines = Files.readAllLines(logFile, UTF_8);
            return ImmutableList.copyOf(lines.subList(Math.max(0, lines.size() - count), lines.size()));
        }
        catch (IOException e) {
            return ImmutableList.of(format("(its log %s cannot be read: %s)", logFile, e.getMessage()));
        }
    }

    /** What to tell a test about this peer: how it ended, if it did, and its last log lines. */
    String report() {
        String state = guard.isAlive()
                ? format("%s (pid %s) is running", name, peer.pid())
                : format("%s (pid %s) exited with code %s", name, peer.pid(), guard.exitValue());
        return format("%s; its last log lines (%s):%n    %s",
                state, logFile, String.join(format("%n    "), lastLogLines(LOG_LINES)));
    }

    @Override
    public void close() {
        // SIGTERM to the peer alone: its guard exits the moment the peer does, and the guard is this
        // JVM's child, so its exit is seen at once (a grandchild's is only polled for)
        peer.destroy();
        try {
            guard.onExit().get(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (TimeoutException e) {
            // still stopping: the whole tree is killed below
        }
        catch (ExecutionException e) {
            throw new IllegalStateException("BUG: onExit failed for " + name, e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<ProcessHandle> survivors = ProcessTrees.destroy(guard.toHandle(), Duration.ZERO);
        if (!survivors.isEmpty()) {
            throw new PeerException(format("%s: processes %s survived SIGKILL", name,
                    survivors.stream().map(ProcessHandle::pid).toList()));
        }
    }
}
