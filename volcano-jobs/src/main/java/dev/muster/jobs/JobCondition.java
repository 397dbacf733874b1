package dev.muster.jobs;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/** One {@code status.conditions[]} entry: the job entered {@code status} at {@code lastTransitionTime}. */
public record JobCondition(JobPhase status, Instant lastTransitionTime) {
    public JobCondition {
        requireNonNull(status, "status is null");
        requireNonNull(lastTransitionTime, "lastTransitionTime is null");
    }
}
