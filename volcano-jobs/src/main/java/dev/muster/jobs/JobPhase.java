package dev.muster.jobs;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Optional;

/** The phase of a Volcano Job ({@code status.state.phase}), spelled as Volcano writes it. */
public enum JobPhase {
    PENDING("Pending"),
    ABORTING("Aborting"),
    ABORTED("Aborted"),
    RUNNING("Running"),
    RESTARTING("Restarting"),
    COMPLETING("Completing"),
    COMPLETED("Completed"),
    TERMINATING("Terminating"),
    TERMINATED("Terminated"),
    FAILED("Failed");

    private final String wireName;

    JobPhase(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Completed, Terminated and Failed: final, only leftover pods are killed; the TTL counts from here. */
    public boolean isFinished() {
        return this == COMPLETED || this == TERMINATED || this == FAILED;
    }

    public static Optional<JobPhase> fromWireName(String name) {
        requireNonNull(name, "name is null");
        return Arrays.stream(values()).filter(phase -> phase.wireName.equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return wireName;
    }
}
