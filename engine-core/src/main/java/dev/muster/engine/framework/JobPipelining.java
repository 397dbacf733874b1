package dev.muster.engine.framework;


/**
 * Votes on whether a job's allocated plus pipelined tasks are enough to keep its reservation. Any reject wins; else a tier with a permit decides; all abstaining means yes.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface JobPipelining {
    Vote isPipelined(JobState job);
}
