package dev.muster.engine.framework;

import java.util.Optional;

/**
 * Filters the nodes a task may go to (Volcano's predicates). The first failing plugin decides.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface NodeFilter {
    /** Checked once per task before any node; a failure skips the task. */
    default Optional<String> prefilter(TaskState task) {
        return Optional.empty();
    }

    /** Why the task cannot go to the node, or empty when it can. */
    Optional<FitFailure> filter(TaskState task, NodeState node);

    /**
     * Everything of the task that {@link #filter} reads, as a value with equals and hashCode, when the
     * verdict depends on nothing else but the node's own state; the allocate loop then remembers
     * verdicts per node {@link NodeState#version() version} for tasks with equal keys. Empty (the
     * default) when verdicts must not be remembered.
     */
    default Optional<Object> filterKey(TaskState task) {
        return Optional.empty();
    }
}
