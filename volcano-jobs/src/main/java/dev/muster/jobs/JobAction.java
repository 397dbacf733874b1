package dev.muster.jobs;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Optional;

/** What the controller does about an event: a policy's {@code action}, or a command ({@code vcctl job suspend}). */
public enum JobAction {
    ABORT_JOB("AbortJob", true),
    RESTART_JOB("RestartJob", true),
    RESTART_TASK("RestartTask", true),
    RESTART_POD("RestartPod", true),
    TERMINATE_JOB("TerminateJob", true),
    COMPLETE_JOB("CompleteJob", true),
    RESUME_JOB("ResumeJob", true),
    /** Internal: create missing pods, delete surplus ones, recount, move the phase on. */
    SYNC_JOB("SyncJob", false);

    private final String wireName;
    private final boolean usableInPolicies;

    JobAction(String wireName, boolean usableInPolicies) {
        this.wireName = wireName;
        this.usableInPolicies = usableInPolicies;
    }

    public String wireName() {
        return wireName;
    }

    public boolean usableInPolicies() {
        return usableInPolicies;
    }

    public static Optional<JobAction> fromWireName(String name) {
        requireNonNull(name, "name is null");
        return Arrays.stream(values()).filter(action -> action.wireName.equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return wireName;
    }
}
