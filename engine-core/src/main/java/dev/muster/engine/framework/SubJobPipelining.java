package dev.muster.engine.framework;

/**
 * Votes on whether a subgroup's allocated plus pipelined tasks are enough to keep its reservation,
 * combined as {@link JobPipelining}; a job without subgroup policies asks {@link JobPipelining}.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface SubJobPipelining {
    Vote isSubJobPipelined(SubJobState subJob);
}
