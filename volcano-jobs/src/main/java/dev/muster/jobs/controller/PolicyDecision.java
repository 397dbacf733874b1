package dev.muster.jobs.controller;

import static java.util.Objects.requireNonNull;

import dev.muster.jobs.JobAction;
import java.time.Duration;
import java.util.Optional;

/** The action a request leads to, and how long to wait before taking it (a policy {@code timeout}). */
public record PolicyDecision(JobAction action, Optional<Duration> delay) {
    public static final PolicyDecision SYNC = new PolicyDecision(JobAction.SYNC_JOB, Optional.empty());

    public PolicyDecision {
        requireNonNull(action, "action is null");
        requireNonNull(delay, "delay is null");
    }
}
