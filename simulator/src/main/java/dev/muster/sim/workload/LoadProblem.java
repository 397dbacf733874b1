package dev.muster.sim.workload;

import static java.util.Objects.requireNonNull;

/** A trace row that was skipped, with its line number (1 is the header) and why. */
public record LoadProblem(String source, int line, String message) {
    public LoadProblem {
        requireNonNull(source, "source is null");
        requireNonNull(message, "message is null");
    }

    public String describe() {
        return source + ":" + line + ": " + message;
    }
}
