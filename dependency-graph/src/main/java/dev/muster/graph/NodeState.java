package dev.muster.graph;

import java.util.Locale;

/**
 * Where a node is in its life. A node moves forward only: {@code PENDING} to {@code RUNNING} or
 * straight to a final state, and {@code RUNNING} to a final state. Retries are the owner's business:
 * a node is reported {@code FAILED} only once it will not run again.
 */
public enum NodeState {
    PENDING,
    RUNNING,
    SUCCEEDED,
    FAILED,
    /** Will not run: skipped by its owner, or because its dependencies can never be met. */
    SKIPPED;

    /** Whether this state is final. */
    public boolean isFinal() {
        return switch (this) {
            case PENDING, RUNNING -> false;
            case SUCCEEDED, FAILED, SKIPPED -> true;
        };
    }

    /** Whether a node in this state may later be in {@code next} (a different state). */
    public boolean canBecome(NodeState next) {
        return switch (this) {
            case PENDING -> next != PENDING;
            case RUNNING -> next.isFinal();
            case SUCCEEDED, FAILED, SKIPPED -> false;
        };
    }

    /** The lower-case name used in messages: {@code succeeded}. */
    public String displayName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
