package dev.muster.runtime.history;

import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobHistory;

/** The job history the scheduling loop hands each session, learnt from the snapshots it reads. */
@FunctionalInterface
public interface CycleHistory {
    /** Keeps no history: every snapshot carries an empty one. */
    CycleHistory NONE = cluster -> JobHistory.EMPTY;

    /**
     * Called once per cycle, on the scheduling thread, with the cycle's snapshot before its session
     * opens: records the jobs that finished in it and answers the history the session is to see. Must
     * not throw for anything the cluster holds, and should be quick (an occasional write at most).
     */
    JobHistory observe(ClusterSnapshot cluster);
}
