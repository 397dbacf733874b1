package dev.muster.embedded;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How a container run as a local process ended: its exit code and its termination message, which is the file the
 * container wrote at {@code /dev/termination-log} or, when that is empty and the container failed, the end of its log
 * (a kubelet's {@code terminationMessagePolicy: FallbackToLogsOnError}).
 */
record ContainerExit(int exitCode, String message) {
    static final ContainerExit SUCCEEDED = new ContainerExit(0, "");
    /** The exit code of a container that could not be started here (a shell's "found but cannot execute"). */
    static final int CANNOT_RUN = 126;
    /** The kubelet's limit on a termination message, 4096 bytes; lines of a log, 80 at most. */
    private static final int MESSAGE_LIMIT = 4096;
    private static final int LOG_LINES = 80;

    ContainerExit {
        requireNonNull(message, "message is null");
    }

    static String message(int exitCode, Path terminationLog, Path log) throws IOException {
        String written = Files.readString(terminationLog, UTF_8).strip();
        if (!written.isEmpty() || exitCode == 0) {
            return limit(written);
        }
        List<String> lines = Files.readAllLines(log, UTF_8);
        return limit(String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_LINES), lines.size())).strip());
    }

    /** The end of a long text, as the kubelet keeps the end of a log. */
    private static String limit(String text) {
        return text.length() <= MESSAGE_LIMIT ? text : text.substring(text.length() - MESSAGE_LIMIT);
    }
}
