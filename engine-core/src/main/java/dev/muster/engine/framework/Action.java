package dev.muster.engine.framework;

/**
 * One step of a scheduling session (enqueue, allocate, preempt, reclaim, backfill), run in the
 * configured order. An action changes the session only through {@link Statement}s and the session's
 * own operations, and catches per-job failures so that one job never stops the others.
 */
public interface Action {
    /** The name used in the configuration's {@code actions}. */
    String name();

    /** Runs the action over the session, on the scheduling thread. */
    void execute(Session session);
}
