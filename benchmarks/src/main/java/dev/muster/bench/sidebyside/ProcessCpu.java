package dev.muster.bench.sidebyside;

import static com.google.common.base.Preconditions.checkArgument;
import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.common.base.Splitter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The CPU time a process has used so far, user plus system, all its threads, from {@code /proc/PID/stat}
 * (fields 14 and 15, {@code utime} and {@code stime}, in clock ticks; proc(5)).
 */
final class ProcessCpu {
    // /proc reports in USER_HZ, which the kernel fixes at 100 on every architecture Linux runs Java on
    static final long TICKS_PER_SECOND = 100;

    private ProcessCpu() {}

    static Duration of(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        try {
            return parse(Files.readString(stat, UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + stat + " (has the process ended?)", e);
        }
    }

    /**
     * Reads one {@code /proc/PID/stat} line. The second field, the command in parentheses, may itself hold
     * spaces and parentheses, so the fields are counted from the last {@code ')'}.
     */
    static Duration parse(String statLine) {
        int end = statLine.lastIndexOf(')');
        checkArgument(end > 0, "not a /proc/PID/stat line: '%s'", statLine);
        // after ") " come field 3 (state) onwards: utime is field 14, the 12th of these
        List<String> fields = Splitter.on(' ').omitEmptyStrings().splitToList(statLine.substring(end + 1).strip());
        checkArgument(fields.size() >= 13, "too few fields in /proc/PID/stat line: '%s'", statLine);
        long ticks = Long.parseLong(fields.get(11)) + Long.parseLong(fields.get(12));
        return Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND);
    }
}
