package dev.muster.sim.cluster;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;

/** The simulated cluster as node pools; {@link #nodes()} expands them. */
public record ClusterSpec(ImmutableList<NodePool> pools) {
    /** The label that names a node's rack. */
    public static final String RACK_LABEL = "topology.muster.dev/rack";

    public ClusterSpec {
        pools = ImmutableList.copyOf(pools);
        checkArgument(!pools.isEmpty(), "a cluster needs at least one pool");
    }

    /** {@code count} uniform nodes in one pool named {@code node}. */
    public static ClusterSpec uniform(int count, Resources allocatable, int rackSize) {
        return new ClusterSpec(ImmutableList.of(new NodePool("node", count, allocatable, ImmutableMap.of(), rackSize, 110)));
    }

    /** Every node, named {@code <pool>-<index>} with the index zero-padded so names sort in pool order. */
    public ImmutableSortedMap<NodeName, ClusterNode> nodes() {
        ImmutableSortedMap.Builder<NodeName, ClusterNode> nodes = ImmutableSortedMap.naturalOrder();
        for (NodePool pool : pools) {
            int digits = Math.max(3, String.valueOf(pool.count() - 1).length());
            for (int i = 0; i < pool.count(); i++) {
                NodeName name = new NodeName(pool.name() + "-" + String.format("%0" + digits + "d", i));
                ImmutableMap<String, String> labels = ImmutableMap.<String, String>builder()
                        .putAll(pool.labels())
                        .put(SchedulingApi.POOL_LABEL, pool.name())
                        .put(RACK_LABEL, pool.rackPrefix() + "-rack-" + (i / pool.rackSize()))
                        .buildKeepingLast();
                nodes.put(name, new ClusterNode(name, pool.allocatable(), pool.allocatable(), pool.maxPods(), labels, ImmutableList.of(), false, true));
            }
        }
        return nodes.build();
    }

    /** The sum of every node's allocatable resources. */
    public Resources total() {
        Resources total = Resources.EMPTY;
        for (NodePool pool : pools) {
            total = total.add(pool.allocatable().multiply(pool.count()));
        }
        return total;
    }

    public int nodeCount() {
        return pools.stream().mapToInt(NodePool::count).sum();
    }
}
