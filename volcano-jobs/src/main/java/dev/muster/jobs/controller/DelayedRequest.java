package dev.muster.jobs.controller;

import static java.util.Objects.requireNonNull;

import dev.muster.jobs.JobEvent;
import java.time.Instant;

/**
 * A policy action with a {@code timeout}: the runtime hands {@code request} (a command carrying the
 * original event and pod) back to the reconciler at {@code notBefore}, unless a later request
 * {@linkplain #isCancelledBy cancels it} first (Volcano's delayed actions).
 */
public record DelayedRequest(JobRequest request, Instant notBefore) {
    public DelayedRequest {
        requireNonNull(request, "request is null");
        requireNonNull(notBefore, "notBefore is null");
    }

    /**
     * Whether {@code later} makes this action moot, as Volcano decides: it must be about the same pod;
     * a delayed {@code PodPending} action is cancelled by any other event of the pod, a delayed
     * {@code PodFailed} or {@code PodEvicted} action by the pod running again.
     */
    public boolean isCancelledBy(JobRequest later) {
        if (later.pod().isEmpty() || !later.pod().equals(request.pod()) || later.event() == JobEvent.POD_PENDING) {
            return false;
        }
        return switch (request.event()) {
            case POD_PENDING -> true;
            case POD_FAILED, POD_EVICTED -> later.event() == JobEvent.POD_RUNNING;
            case ANY, POD_RUNNING, JOB_UNKNOWN, TASK_COMPLETED, TASK_FAILED, OUT_OF_SYNC, COMMAND_ISSUED, JOB_UPDATED -> false;
        };
    }
}
