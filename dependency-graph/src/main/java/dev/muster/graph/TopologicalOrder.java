package dev.muster.graph;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The nodes of a {@link JobGraph} in levels: level 0 holds the roots, and a node sits one level below
 * its deepest parent, so the nodes of one level never depend on each other. Within a level nodes are
 * ordered by id, which makes {@link #order()} deterministic.
 */
public final class TopologicalOrder {
    private final ImmutableList<ImmutableSortedSet<NodeId>> levels;
    private final ImmutableMap<NodeId, Integer> levelOf;

    private TopologicalOrder(ImmutableList<ImmutableSortedSet<NodeId>> levels, ImmutableMap<NodeId, Integer> levelOf) {
        this.levels = requireNonNull(levels, "levels is null");
        this.levelOf = requireNonNull(levelOf, "levelOf is null");
    }

    /** Kahn's algorithm, one level at a time. */
    static TopologicalOrder of(JobGraph graph) {
        Map<NodeId, Integer> waitingParents = new HashMap<>();
        for (NodeId node : graph.nodes()) {
            waitingParents.put(node, graph.parents(node).size());
        }
        ImmutableList.Builder<ImmutableSortedSet<NodeId>> levels = ImmutableList.builder();
        ImmutableMap.Builder<NodeId, Integer> levelOf = ImmutableMap.builder();
        List<NodeId> current = new ArrayList<>(graph.roots());
        int placed = 0;
        for (int level = 0; !current.isEmpty(); level++) {
            List<NodeId> next = new ArrayList<>();
            for (NodeId node : current) {
                levelOf.put(node, level);
                for (Dependency edge : graph.children(node)) {
                    if (waitingParents.merge(edge.child(), -1, Integer::sum) == 0) {
                        next.add(edge.child());
                    }
                }
            }
            levels.add(ImmutableSortedSet.copyOf(current));
            placed += current.size();
            current = next;
        }
        checkState(placed == graph.size(), "BUG: a validated graph has a cycle: %s", graph);
        return new TopologicalOrder(levels.build(), levelOf.buildOrThrow());
    }

    /** The levels, roots first. */
    public ImmutableList<ImmutableSortedSet<NodeId>> levels() {
        return levels;
    }

    /** Every node, level by level, by id within a level: each node after all of its parents. */
    public ImmutableList<NodeId> order() {
        return levels.stream().flatMap(ImmutableSortedSet::stream).collect(ImmutableList.toImmutableList());
    }

    /** The node's level: the length of the longest edge path from a root to it. */
    public int levelOf(NodeId node) {
        requireNonNull(node, "node is null");
        Integer level = levelOf.get(node);
        checkArgument(level != null, "unknown node '%s'", node);
        return level;
    }

    /** The number of levels: the number of nodes on the longest edge path. */
    public int depth() {
        return levels.size();
    }

    /** The nodes in reverse order, leaves first: each node before its parents. */
    ImmutableList<NodeId> reverseOrder() {
        return order().reverse();
    }

    @Override
    public String toString() {
        return "TopologicalOrder" + levels;
    }
}
