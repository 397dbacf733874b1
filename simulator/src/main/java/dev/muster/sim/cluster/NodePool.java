package dev.muster.sim.cluster;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.Resources;

/**
 * Identical nodes: {@code count} of them, named {@code <name>-<index>}, each with the same
 * allocatable resources and labels, grouped into racks of {@code rackSize} consecutive nodes named
 * {@code <rackPrefix>-rack-<n>}. Pools with the same {@code rackPrefix} share racks: rack {@code n} holds
 * the {@code n}-th {@code rackSize} nodes of each (CPU and GPU nodes under one switch).
 */
public record NodePool(String name, int count, Resources allocatable, ImmutableMap<String, String> labels, int rackSize, int maxPods,
        String rackPrefix) {
    public NodePool {
        requireNonNull(rackPrefix, "rackPrefix is null");
        requireNonNull(name, "name is null");
        checkArgument(count > 0, "pool %s: count must be positive: %s", name, count);
        requireNonNull(allocatable, "allocatable is null");
        labels = ImmutableMap.copyOf(labels);
        checkArgument(rackSize > 0, "pool %s: rackSize must be positive: %s", name, rackSize);
        checkArgument(maxPods > 0, "pool %s: maxPods must be positive: %s", name, maxPods);
    }

    /** A pool with racks of its own. */
    public NodePool(String name, int count, Resources allocatable, ImmutableMap<String, String> labels, int rackSize, int maxPods) {
        this(name, count, allocatable, labels, rackSize, maxPods, name);
    }
}
