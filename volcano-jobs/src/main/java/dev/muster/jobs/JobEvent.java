package dev.muster.jobs;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Optional;

/**
 * What happened to a job or one of its pods ({@code bus.volcano.sh/v1alpha1} events). Policies match
 * the public ones; the internal ones only drive synchronisation.
 */
public enum JobEvent {
    ANY("*", true),
    POD_FAILED("PodFailed", true),
    POD_EVICTED("PodEvicted", true),
    POD_PENDING("PodPending", true),
    POD_RUNNING("PodRunning", false),
    /** Part of the gang runs while the rest cannot be scheduled (the PodGroup went Unknown). */
    JOB_UNKNOWN("Unknown", true),
    TASK_COMPLETED("TaskCompleted", true),
    TASK_FAILED("TaskFailed", true),
    OUT_OF_SYNC("OutOfSync", false),
    COMMAND_ISSUED("CommandIssued", false),
    JOB_UPDATED("JobUpdated", true);

    private final String wireName;
    private final boolean usableInPolicies;

    JobEvent(String wireName, boolean usableInPolicies) {
        this.wireName = wireName;
        this.usableInPolicies = usableInPolicies;
    }

    public String wireName() {
        return wireName;
    }

    /** Whether a lifecycle policy may name this event. */
    public boolean usableInPolicies() {
        return usableInPolicies;
    }

    /** Only {@code PodPending} needs a policy timeout before its action runs. */
    public boolean needsTimeout() {
        return this == POD_PENDING;
    }

    public static Optional<JobEvent> fromWireName(String name) {
        requireNonNull(name, "name is null");
        return Arrays.stream(values()).filter(event -> event.wireName.equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return wireName;
    }
}
