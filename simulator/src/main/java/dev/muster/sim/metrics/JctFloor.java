package dev.muster.sim.metrics;

import dev.muster.sim.workload.Workload;

/**
 * The average JCT if no job ever waited for room: each job's critical path (its gangs' durations along
 * its longest chain of dependencies) from its arrival, averaged over every job. No policy's average JCT
 * over the same jobs is lower (durations that placement stretches, as the PS/worker model's, only add
 * to it), so it bounds what a policy's ratio to another can reach: a target below {@code floor /
 * baseline} cannot be met on that run by any scheduler.
 */
public final class JctFloor {
    private JctFloor() {}

    public static double seconds(Workload workload) {
        return workload.jobs().stream().mapToLong(EarliestRuns::jctMillis).average().orElse(0) / 1000.0;
    }
}
