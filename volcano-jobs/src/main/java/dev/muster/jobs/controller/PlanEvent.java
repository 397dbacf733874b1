package dev.muster.jobs.controller;

import static java.util.Objects.requireNonNull;

/** A Kubernetes Event to record on the object: {@code Normal} or {@code Warning}, a CamelCase reason, a message. */
public record PlanEvent(boolean warning, String reason, String message) {
    public PlanEvent {
        requireNonNull(reason, "reason is null");
        requireNonNull(message, "message is null");
    }

    public static PlanEvent normal(String reason, String message) {
        return new PlanEvent(false, reason, message);
    }

    public static PlanEvent warning(String reason, String message) {
        return new PlanEvent(true, reason, message);
    }

    public String type() {
        return warning ? "Warning" : "Normal";
    }
}
