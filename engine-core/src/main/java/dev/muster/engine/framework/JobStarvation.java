package dev.muster.engine.framework;


/**
 * Says whether a job still wants resources, which makes it a preemptor or reclaimer. The first tier with an answer decides, with all its plugins agreeing.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface JobStarvation {
    boolean isStarving(JobState job);
}
