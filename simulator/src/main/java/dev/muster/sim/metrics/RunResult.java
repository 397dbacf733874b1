package dev.muster.sim.metrics;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * Everything one policy's run produced.
 *
 * @param unschedulable jobs left out before the run because a gang can never fit the cluster
 * @param endMillis the simulated time when the run stopped
 * @param livelocked the run stopped because the policy kept changing its decisions without any event
 * @param measured the resource shares are measured in: {@code nvidia.com/gpu}, or {@code cpu} for a cpu-only workload
 */
public record RunResult(
        String policy,
        ImmutableList<JobRecord> jobs,
        ImmutableList<GangRecord> gangs,
        ImmutableList<String> unschedulable,
        Timeline timeline,
        long endMillis,
        long cycles,
        boolean livelocked,
        String measured) {
    public RunResult {
        requireNonNull(policy, "policy is null");
        jobs = ImmutableList.copyOf(jobs);
        gangs = ImmutableList.copyOf(gangs);
        unschedulable = ImmutableList.copyOf(unschedulable);
        requireNonNull(timeline, "timeline is null");
        requireNonNull(measured, "measured is null");
    }
}
