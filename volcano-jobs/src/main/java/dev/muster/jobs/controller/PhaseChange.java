package dev.muster.jobs.controller;

import static java.util.Objects.requireNonNull;

import dev.muster.jobs.JobPhase;

/** A rule's verdict: enter {@code phase}, adding one to the retry count when {@code retry}, with a reason and message for people. */
public record PhaseChange(JobPhase phase, boolean retry, String reason, String message) {
    public PhaseChange {
        requireNonNull(phase, "phase is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(message, "message is null");
    }

    static PhaseChange to(JobPhase phase) {
        return new PhaseChange(phase, false, "", "");
    }

    static PhaseChange to(JobPhase phase, String reason, String message) {
        return new PhaseChange(phase, false, reason, message);
    }
}
