package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * One condition of a training job's status ({@code JobCondition}, {@code common_types.go:132-159}). The type
 * is kept as text: a job may carry conditions native mode does not write (the bridge's {@code Invalid}).
 */
public record JobCondition(String type, boolean status, String reason, String message, Instant lastUpdateTime,
        Instant lastTransitionTime) {
    public static final String CREATED = "Created";
    public static final String RUNNING = "Running";
    public static final String RESTARTING = "Restarting";
    public static final String SUCCEEDED = "Succeeded";
    public static final String SUSPENDED = "Suspended";
    public static final String FAILED = "Failed";

    public JobCondition {
        requireNonNull(type, "type is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(message, "message is null");
        requireNonNull(lastUpdateTime, "lastUpdateTime is null");
        requireNonNull(lastTransitionTime, "lastTransitionTime is null");
    }

    JobCondition withStatus(boolean value) {
        return new JobCondition(type, value, reason, message, lastUpdateTime, lastTransitionTime);
    }

    JobCondition withLastTransitionTime(Instant time) {
        return new JobCondition(type, status, reason, message, lastUpdateTime, time);
    }
}
