package dev.muster.bench.sidebyside;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.common.base.Splitter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The 1, 5 and 15 minute load averages of {@code /proc/loadavg}, as {@code uptime} prints them. */
record MachineLoad(String oneMinute, String fiveMinutes, String fifteenMinutes) {
    static MachineLoad now() {
        try {
            return parse(Files.readString(Path.of("/proc/loadavg"), UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/loadavg", e);
        }
    }

    static MachineLoad parse(String line) {
        List<String> fields = Splitter.on(' ').omitEmptyStrings().splitToList(line.strip());
        return new MachineLoad(fields.get(0), fields.get(1), fields.get(2));
    }

    @Override
    public String toString() {
        return oneMinute + " " + fiveMinutes + " " + fifteenMinutes;
    }
}
