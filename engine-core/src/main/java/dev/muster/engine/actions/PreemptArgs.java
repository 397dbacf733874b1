package dev.muster.engine.actions;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The preempt action's arguments, with Volcano's names and defaults.
 *
 * <p>Only the normal mode is implemented. The topology-aware mode ({@code enableTopologyAwarePreemption}
 * and the candidate and worker settings that tune it) is accepted so that Volcano configurations load;
 * turning it on is logged as a warning when the action is built and preemption stays in normal mode.
 * {@code predicateErrorCacheEnable} is accepted for the same reason: Muster evaluates predicates per
 * task without Volcano's per-role cache; the decisions differ only if tasks of one role had different
 * placement constraints.
 *
 * @param minCandidateNodesPercentage topology-aware mode only: the share of nodes to consider, 0 to 100
 */
public record PreemptArgs(
        boolean predicateErrorCacheEnable,
        boolean enableTopologyAwarePreemption,
        int topologyAwarePreemptWorkerNum,
        int minCandidateNodesPercentage,
        int minCandidateNodesAbsolute,
        int maxCandidateNodesAbsolute) {
    public static final PreemptArgs DEFAULTS = new PreemptArgs(true, false, 16, 10, 1, 100);

    public PreemptArgs {
        checkArgument(topologyAwarePreemptWorkerNum > 0, "topologyAwarePreemptWorkerNum must be positive: %s", topologyAwarePreemptWorkerNum);
        checkArgument(minCandidateNodesPercentage >= 0 && minCandidateNodesPercentage <= 100,
                "minCandidateNodesPercentage must be between 0 and 100: %s", minCandidateNodesPercentage);
        checkArgument(minCandidateNodesAbsolute >= 0, "minCandidateNodesAbsolute must not be negative: %s", minCandidateNodesAbsolute);
        checkArgument(maxCandidateNodesAbsolute >= minCandidateNodesAbsolute,
                "maxCandidateNodesAbsolute %s is below minCandidateNodesAbsolute %s", maxCandidateNodesAbsolute, minCandidateNodesAbsolute);
    }
}
