package dev.muster.engine.model;

import static java.util.Objects.requireNonNull;

/**
 * One term of preferred node affinity: a node matching {@code preference} earns {@code weight}
 * (1..100 in Kubernetes) in the node affinity score.
 */
public record PreferredSchedulingTerm(int weight, NodeSelectorTerm preference) {
    public PreferredSchedulingTerm {
        requireNonNull(preference, "preference is null");
    }
}
