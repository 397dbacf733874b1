package dev.muster.engine.framework;

import dev.muster.engine.model.NodeName;

/**
 * Told of each bind as a statement commits it, while the session still runs, so a runtime can send a
 * gang's binds while the session decides the next gangs instead of after the whole cycle (as Volcano's
 * statement commit hands each bind to its cache's binder at once). A committed bind is final within its
 * session: nothing undoes it, and it is also in {@link SessionResult#binds()}.
 *
 * <p>Called on the scheduling thread during actions; must not block and must not change the session.
 */
@FunctionalInterface
public interface CommittedBinds {
    /** Ignores every bind: the session's result is the only output. */
    CommittedBinds NONE = (task, node) -> {};

    /** {@code task} is to be bound to {@code node}. */
    void committed(TaskState task, NodeName node);
}
