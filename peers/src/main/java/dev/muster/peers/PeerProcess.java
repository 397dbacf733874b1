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

/**
 * A peer running as a child process, its standard output and error in one log file. Closing it ends
 * its whole process tree.
 */
final class PeerProcess implements AutoCloseable {
    static final int LOG_LINES = 40;

    private final String name;
    private final Process process;
    private final Path logFile;

    private PeerProcess(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
    }

    static PeerProcess start(String name, List<String> command, Path logFile) {
        requireNonNull(name, "name is null");
        requireNonNull(command, "command is null");
        requireNonNull(logFile, "logFile is null");
        try {
            Process process = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectErrorStream(true)
                    .redirectOutput(logFile.toFile())
                    .start();
            return new PeerProcess(name, process, logFile);
        }
        catch (IOException e) {
            throw new PeerException(format("cannot start %s (%s): %s", name, command.get(0), e.getMessage()), e);
        }
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    boolean isAlive() {
        return process.isAlive();
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
        String state = process.isAlive()
                ? format("%s (pid %s) is running", name, process.pid())
                : format("%s (pid %s) exited with code %s", name, process.pid(), process.exitValue());
        return format("%s; its last log lines (%s):%n    %s",
                state, logFile, String.join(format("%n    "), lastLogLines(LOG_LINES)));
    }

    @Override
    public void close() {
        List<ProcessHandle> survivors = ProcessTrees.destroy(process.toHandle(), Duration.ofSeconds(15));
        if (!survivors.isEmpty()) {
            throw new PeerException(format("%s: processes %s survived SIGKILL", name,
                    survivors.stream().map(ProcessHandle::pid).toList()));
        }
    }
}
