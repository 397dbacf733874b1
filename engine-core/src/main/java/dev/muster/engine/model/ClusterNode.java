package dev.muster.engine.model;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;

/**
 * A node of the cluster.
 *
 * @param maxPods the node's {@code pods} allocatable; the predicates plugin checks it
 * @param ready the node's Ready condition is True
 */
public record ClusterNode(
        NodeName name,
        Resources allocatable,
        Resources capacity,
        int maxPods,
        ImmutableMap<String, String> labels,
        ImmutableList<Taint> taints,
        boolean unschedulable,
        boolean ready) {
    public ClusterNode {
        requireNonNull(name, "name is null");
        requireNonNull(allocatable, "allocatable is null");
        requireNonNull(capacity, "capacity is null");
        checkArgument(maxPods >= 0, "node %s: maxPods is negative", name);
        labels = ImmutableMap.copyOf(labels);
        taints = ImmutableList.copyOf(taints);
    }
}
