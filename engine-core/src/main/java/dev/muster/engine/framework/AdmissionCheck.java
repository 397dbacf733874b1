package dev.muster.engine.framework;

import java.util.Optional;

/**
 * Votes on whether a Pending job may become Inqueue (the enqueue action). Any reject wins; else a tier with a permit decides; all abstaining means yes.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface AdmissionCheck {
    Vote isEnqueueable(JobState job);

    /** Why {@link #isEnqueueable} rejects the job, in words a user can act on; called only after a rejection. */
    default Optional<String> explainRejection(JobState job) {
        return Optional.empty();
    }

    /**
     * Whether {@link #isEnqueueable} rejects the job for want of room on the cluster or of a share of it,
     * not by a limit set on its queue nor for a reason of the job's own: the enqueue action then names
     * the nodes' room first when no node has room for one of its tasks. Called only after a rejection.
     */
    default boolean rejectsForRoom(JobState job) {
        return false;
    }

    /** Called after a job was admitted, so the plugin can count its minimum resources as in queue. */
    default void enqueued(JobState job) {}
}
