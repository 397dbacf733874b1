package dev.muster.engine.plugins.resourcestrategyfit;

/** How a resource's share of a node scores, spelt as in Kubernetes' scoring strategies. */
public enum ScoringType {
    /** Emptier nodes score higher: {@code (allocatable - used - request) / allocatable}. */
    LeastAllocated,
    /** Fuller nodes score higher: {@code (used + request) / allocatable}. */
    MostAllocated
}
