package dev.muster.sim.metrics;

import static java.util.Objects.requireNonNull;

/**
 * One gang after the run.
 *
 * @param firstRunMillis when all its pods first ran together; -1 if never
 * @param finishedMillis -1 when it did not finish
 * @param stuck it was partly placed for longer than the threshold, or when the run ended
 * @param wastedGpuSeconds GPU-seconds its pods held while the gang was only partly placed
 * @param pairs where its two roles' pods sat when it first ran ({@link RolePairs#NONE} for one role, or if it never ran)
 */
public record GangRecord(String job, String gang, long submittedMillis, long firstRunMillis, long finishedMillis, int restarts,
        boolean stuck, double wastedGpuSeconds, RolePairs pairs) {
    public GangRecord {
        requireNonNull(job, "job is null");
        requireNonNull(gang, "gang is null");
        requireNonNull(pairs, "pairs is null");
    }

    /** A gang of one role. */
    public GangRecord(String job, String gang, long submittedMillis, long firstRunMillis, long finishedMillis, int restarts,
            boolean stuck, double wastedGpuSeconds) {
        this(job, gang, submittedMillis, firstRunMillis, finishedMillis, restarts, stuck, wastedGpuSeconds, RolePairs.NONE);
    }
}
