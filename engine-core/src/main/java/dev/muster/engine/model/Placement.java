package dev.muster.engine.model;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;

/**
 * Where a pod may go: its nodeSelector, its required node affinity (any one term must match; none
 * means anywhere) and its tolerations.
 */
public record Placement(
        ImmutableMap<String, String> nodeSelector,
        ImmutableList<NodeSelectorTerm> requiredNodeAffinity,
        ImmutableList<Toleration> tolerations) {
    public static final Placement ANYWHERE = new Placement(ImmutableMap.of(), ImmutableList.of(), ImmutableList.of());

    public Placement {
        nodeSelector = ImmutableMap.copyOf(nodeSelector);
        requiredNodeAffinity = ImmutableList.copyOf(requiredNodeAffinity);
        tolerations = ImmutableList.copyOf(tolerations);
    }
}
