package dev.muster.engine.framework;

import java.util.Optional;

/**
 * Checks that a job can be scheduled at all (e.g. it has enough tasks for its gang). A job failing any check is skipped by every action.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface JobValidity {
    /** A reason the job is not valid, or empty when it is. */
    Optional<String> invalidReason(JobState job);
}
