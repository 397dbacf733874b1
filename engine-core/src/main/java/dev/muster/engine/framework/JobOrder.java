package dev.muster.engine.framework;


/**
 * Orders jobs within a queue. Plugins are asked in tier order; the first non-zero answer wins, then creation time, then uid.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface JobOrder {
    /** Negative when {@code left} should be scheduled first, positive when {@code right}, 0 for no opinion. */
    int compareJobs(JobState left, JobState right);
}
