package dev.muster.engine.model;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;

/**
 * Where a pod may go: its nodeSelector, its required node affinity (any one term must match; none
 * means anywhere) and its tolerations; and where it would rather go: its preferred node affinity,
 * which only scoring reads.
 */
public record Placement(
        ImmutableMap<String, String> nodeSelector,
        ImmutableList<NodeSelectorTerm> requiredNodeAffinity,
        ImmutableList<Toleration> tolerations,
        ImmutableList<PreferredSchedulingTerm> preferredNodeAffinity) {
    public static final Placement ANYWHERE = new Placement(ImmutableMap.of(), ImmutableList.of(), ImmutableList.of());

    public Placement {
        nodeSelector = ImmutableMap.copyOf(nodeSelector);
        requiredNodeAffinity = ImmutableList.copyOf(requiredNodeAffinity);
        tolerations = ImmutableList.copyOf(tolerations);
        preferredNodeAffinity = ImmutableList.copyOf(preferredNodeAffinity);
    }

    /** A placement without preferred node affinity. */
    public Placement(
            ImmutableMap<String, String> nodeSelector,
            ImmutableList<NodeSelectorTerm> requiredNodeAffinity,
            ImmutableList<Toleration> tolerations) {
        this(nodeSelector, requiredNodeAffinity, tolerations, ImmutableList.of());
    }

    public Placement withPreferredNodeAffinity(ImmutableList<PreferredSchedulingTerm> terms) {
        return new Placement(nodeSelector, requiredNodeAffinity, tolerations, terms);
    }
}
