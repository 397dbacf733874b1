package dev.muster.engine.framework;

/**
 * Says whether a subgroup holds enough allocated tasks to stop placing its tasks (gang readiness of one
 * subgroup). Every enabled plugin must agree; a job without subgroup policies asks {@link JobReadiness}.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface SubJobReadiness {
    boolean isSubJobReady(SubJobState subJob);
}
