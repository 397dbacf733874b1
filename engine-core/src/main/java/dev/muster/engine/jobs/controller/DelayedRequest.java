package dev.muster.engine.jobs.controller;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * A policy action with a {@code timeout}: the runtime hands {@code request} (a command) back to the
 * reconciler at {@code notBefore}, unless a later request about the same pod arrives first, which
 * cancels it (Volcano's delayed actions).
 */
public record DelayedRequest(JobRequest request, Instant notBefore) {
    public DelayedRequest {
        requireNonNull(request, "request is null");
        requireNonNull(notBefore, "notBefore is null");
    }
}
