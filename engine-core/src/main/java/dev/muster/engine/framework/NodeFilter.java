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
}
