package dev.muster.engine.framework;

import static java.util.Objects.requireNonNull;

/**
 * Why a task does not fit a node.
 *
 * @param resolvable whether evicting pods could make it fit (Kubernetes' Unschedulable versus
 *     UnschedulableAndUnresolvable); preempt and reclaim only try nodes where it could
 */
public record FitFailure(String reason, boolean resolvable) {
    public FitFailure {
        requireNonNull(reason, "reason is null");
    }

    public static FitFailure resolvable(String reason) {
        return new FitFailure(reason, true);
    }

    public static FitFailure unresolvable(String reason) {
        return new FitFailure(reason, false);
    }
}
