package dev.muster.sim.cluster;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.Resources;

/**
 * Identical nodes: {@code count} of them, named {@code <name>-<index>}, each with the same
 * allocatable resources and labels, grouped into racks of {@code rackSize} consecutive nodes.
 */
public record NodePool(String name, int count, Resources allocatable, ImmutableMap<String, String> labels, int rackSize, int maxPods) {
    public NodePool {
        requireNonNull(name, "name is null");
        checkArgument(count > 0, "pool %s: count must be positive: %s", name, count);
        requireNonNull(allocatable, "allocatable is null");
        labels = ImmutableMap.copyOf(labels);
        checkArgument(rackSize > 0, "pool %s: rackSize must be positive: %s", name, rackSize);
        checkArgument(maxPods > 0, "pool %s: maxPods must be positive: %s", name, maxPods);
    }
}
