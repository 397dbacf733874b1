package dev.muster.graph;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Comparator.comparing;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableListMultimap;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;
import java.util.Comparator;

/**
 * A valid dependency graph: named nodes, each with a {@link Join}, and conditional edges, without
 * cycles, self-edges or edges to unknown nodes. Immutable; every listing is ordered by node id.
 * Build one with {@link #builder()}.
 */
public final class JobGraph {
    private static final Comparator<Dependency> BY_PARENT_THEN_CHILD =
            comparing(Dependency::parent).thenComparing(Dependency::child);

    private final ImmutableSortedMap<NodeId, Join> joins;
    private final ImmutableList<Dependency> dependencies;
    private final ImmutableListMultimap<NodeId, Dependency> parents;
    private final ImmutableListMultimap<NodeId, Dependency> children;
    private final TopologicalOrder topologicalOrder;

    /** Called by {@link GraphBuilder#build()} once the graph is validated. */
    JobGraph(ImmutableSortedMap<NodeId, Join> joins, ImmutableList<Dependency> dependencies) {
        this.joins = requireNonNull(joins, "joins is null");
        this.dependencies = ImmutableList.sortedCopyOf(BY_PARENT_THEN_CHILD, dependencies);
        this.parents = this.dependencies.stream()
                .sorted(comparing(Dependency::child).thenComparing(Dependency::parent))
                .collect(ImmutableListMultimap.toImmutableListMultimap(Dependency::child, dependency -> dependency));
        this.children = this.dependencies.stream()
                .collect(ImmutableListMultimap.toImmutableListMultimap(Dependency::parent, dependency -> dependency));
        this.topologicalOrder = TopologicalOrder.of(this);
    }

    public static GraphBuilder builder() {
        return new GraphBuilder();
    }

    public ImmutableSortedSet<NodeId> nodes() {
        return joins.keySet();
    }

    public int size() {
        return joins.size();
    }

    public boolean contains(NodeId node) {
        return joins.containsKey(node);
    }

    public Join join(NodeId node) {
        checkKnown(node);
        return joins.get(node);
    }

    /** Every edge, ordered by parent, then child. */
    public ImmutableList<Dependency> dependencies() {
        return dependencies;
    }

    /** The edges into {@code node}, ordered by parent. */
    public ImmutableList<Dependency> parents(NodeId node) {
        checkKnown(node);
        return parents.get(node);
    }

    /** The edges out of {@code node}, ordered by child. */
    public ImmutableList<Dependency> children(NodeId node) {
        checkKnown(node);
        return children.get(node);
    }

    /** Nodes without parents: ready as soon as a run starts. */
    public ImmutableSortedSet<NodeId> roots() {
        return nodes().stream()
                .filter(node -> !parents.containsKey(node))
                .collect(ImmutableSortedSet.toImmutableSortedSet(Comparator.naturalOrder()));
    }

    /** Nodes without children. */
    public ImmutableSortedSet<NodeId> leaves() {
        return nodes().stream()
                .filter(node -> !children.containsKey(node))
                .collect(ImmutableSortedSet.toImmutableSortedSet(Comparator.naturalOrder()));
    }

    public TopologicalOrder topologicalOrder() {
        return topologicalOrder;
    }

    void checkKnown(NodeId node) {
        requireNonNull(node, "node is null");
        checkArgument(joins.containsKey(node), "unknown node '%s'", node);
    }

    @Override
    public String toString() {
        return "JobGraph{nodes=" + nodes() + ", dependencies=" + dependencies + "}";
    }
}
