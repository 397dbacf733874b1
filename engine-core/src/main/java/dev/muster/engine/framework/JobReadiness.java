package dev.muster.engine.framework;


/**
 * Says whether a job holds enough allocated tasks for its binds to be dispatched (gang readiness). Every enabled plugin must agree.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface JobReadiness {
    boolean isReady(JobState job);
}
