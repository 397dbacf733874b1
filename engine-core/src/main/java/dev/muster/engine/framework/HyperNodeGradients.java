package dev.muster.engine.framework;

import java.util.List;

/**
 * Groups the hypernodes a job or subgroup may be placed in into gradients (Volcano's
 * {@code HyperNodeGradientForJobFn} and {@code ...ForSubJobFn}): allocate dry-runs every hypernode of
 * the first gradient and moves to the next only when none takes the job, so the lowest tiers, the
 * closest placements, come first. The first enabled plugin answers; without one the only gradient is
 * the hypernode the caller gives.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface HyperNodeGradients {
    /** The gradients for a whole job, within the given hypernode. */
    List<List<String>> gradientsForJob(JobState job, String within);

    /** The gradients for one subgroup, within the hypernode chosen for its job. */
    List<List<String>> gradientsForSubJob(SubJobState subJob, String within);
}
