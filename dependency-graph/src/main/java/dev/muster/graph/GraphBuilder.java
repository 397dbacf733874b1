package dev.muster.graph;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSetMultimap;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;
import com.google.common.collect.Ordering;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Collects nodes and edges in any order, then {@link #validate()}s or {@link #build()}s a
 * {@link JobGraph}. Edges may name nodes declared later. Not thread-safe.
 */
public final class GraphBuilder {
    private final Map<NodeId, Join> joins = new LinkedHashMap<>();
    private final Set<NodeId> duplicateNodes = new LinkedHashSet<>();
    private final List<Dependency> edges = new ArrayList<>();

    GraphBuilder() {}

    /** Adds a node that waits for all of its parents. */
    public GraphBuilder node(String id) {
        return node(NodeId.of(id), Join.ALL);
    }

    public GraphBuilder node(String id, Join join) {
        return node(NodeId.of(id), join);
    }

    public GraphBuilder node(NodeId id, Join join) {
        requireNonNull(id, "id is null");
        requireNonNull(join, "join is null");
        if (joins.putIfAbsent(id, join) != null) {
            duplicateNodes.add(id);
        }
        return this;
    }

    /** Adds an edge on which {@code child} waits for {@code parent} to succeed. */
    public GraphBuilder edge(String parent, String child) {
        return edge(parent, child, Condition.SUCCEEDED);
    }

    public GraphBuilder edge(String parent, String child, Condition condition) {
        return dependency(new Dependency(NodeId.of(parent), NodeId.of(child), condition));
    }

    public GraphBuilder dependency(Dependency dependency) {
        edges.add(requireNonNull(dependency, "dependency is null"));
        return this;
    }

    /**
     * Every problem, in this order: duplicate nodes, then edge problems in the order the edges were
     * added (self-edge, unknown node, duplicate edge), then one cycle per strongly connected component
     * ordered by its smallest node. Empty when the graph is valid.
     */
    public ImmutableList<GraphProblem> validate() {
        ImmutableList.Builder<GraphProblem> problems = ImmutableList.builder();
        duplicateNodes.forEach(node -> problems.add(new GraphProblem.DuplicateNode(node)));
        Set<NodeId> selfEdges = new HashSet<>();
        Set<List<NodeId>> seen = new HashSet<>();
        ImmutableSetMultimap.Builder<NodeId, NodeId> successors = ImmutableSetMultimap.<NodeId, NodeId>builder()
                .orderValuesBy(Ordering.natural());
        for (Dependency edge : edges) {
            if (edge.parent().equals(edge.child())) {
                if (selfEdges.add(edge.parent())) {
                    problems.add(new GraphProblem.SelfEdge(edge.parent()));
                }
                continue;
            }
            boolean known = true;
            for (NodeId end : List.of(edge.parent(), edge.child())) {
                if (!joins.containsKey(end)) {
                    problems.add(new GraphProblem.UnknownNode(edge, end));
                    known = false;
                }
            }
            if (!seen.add(List.of(edge.parent(), edge.child()))) {
                problems.add(new GraphProblem.DuplicateEdge(edge.parent(), edge.child()));
            } else if (known) {
                successors.put(edge.parent(), edge.child());
            }
        }
        problems.addAll(Cycles.find(ImmutableSortedSet.copyOf(joins.keySet()), successors.build()));
        return problems.build();
    }

    /**
     * The graph.
     *
     * @throws GraphException naming every problem {@link #validate()} finds
     */
    public JobGraph build() {
        ImmutableList<GraphProblem> problems = validate();
        if (!problems.isEmpty()) {
            throw new GraphException(problems);
        }
        return new JobGraph(ImmutableSortedMap.copyOf(joins), ImmutableList.copyOf(edges));
    }
}
