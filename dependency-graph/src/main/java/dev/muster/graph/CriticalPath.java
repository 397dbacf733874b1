package dev.muster.graph;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedSet;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The longest chain of work left in a {@link JobGraph}, from duration estimates: for every node, the
 * time from its start to the end of its slowest chain of descendants, and the chain itself. Every
 * edge counts, whatever its condition. The {@code dag} plugin starts the node with the longest
 * remaining path first ({@link #longestFirst()}). Ties go to the smaller node id.
 */
public final class CriticalPath {
    private final ImmutableMap<NodeId, Duration> remaining;
    private final ImmutableMap<NodeId, NodeId> next;
    private final ImmutableSortedSet<NodeId> nodes;

    private CriticalPath(ImmutableSortedSet<NodeId> nodes, ImmutableMap<NodeId, Duration> remaining, ImmutableMap<NodeId, NodeId> next) {
        this.nodes = requireNonNull(nodes, "nodes is null");
        this.remaining = requireNonNull(remaining, "remaining is null");
        this.next = requireNonNull(next, "next is null");
    }

    /**
     * The critical path of a graph that has not started.
     *
     * @param durations an estimate for every node; none negative
     */
    public static CriticalPath of(JobGraph graph, Map<NodeId, Duration> durations) {
        requireNonNull(graph, "graph is null");
        requireNonNull(durations, "durations is null");
        checkNoUnknownNodes(graph, durations);
        ImmutableSortedSet<NodeId> missing = ImmutableSortedSet.copyOf(
                graph.nodes().stream().filter(node -> !durations.containsKey(node)).iterator());
        checkArgument(missing.isEmpty(), "no duration estimate for %s", missing);
        durations.forEach((node, duration) ->
                checkArgument(!duration.isNegative(), "node %s: negative duration %s", node, duration));
        return compute(graph, durations);
    }

    /**
     * The critical path of what is left of a run: nodes in a final state count as zero, so they need
     * no estimate; for a running node pass the time it still needs.
     */
    public static CriticalPath ofRun(GraphRun run, Map<NodeId, Duration> remainingEstimates) {
        requireNonNull(run, "run is null");
        requireNonNull(remainingEstimates, "remainingEstimates is null");
        Map<NodeId, Duration> durations = new HashMap<>();
        run.graph().nodes().forEach(node -> {
            if (run.state(node).isFinal()) {
                durations.put(node, Duration.ZERO);
            } else if (remainingEstimates.containsKey(node)) {
                durations.put(node, remainingEstimates.get(node));
            }
        });
        checkNoUnknownNodes(run.graph(), remainingEstimates);
        return of(run.graph(), durations);
    }

    private static void checkNoUnknownNodes(JobGraph graph, Map<NodeId, Duration> durations) {
        ImmutableSortedSet<NodeId> unknown = ImmutableSortedSet.copyOf(
                durations.keySet().stream().filter(node -> !graph.contains(node)).iterator());
        checkArgument(unknown.isEmpty(), "durations for unknown nodes: %s", unknown);
    }

    private static CriticalPath compute(JobGraph graph, Map<NodeId, Duration> durations) {
        Map<NodeId, Duration> remaining = new HashMap<>();
        ImmutableMap.Builder<NodeId, NodeId> next = ImmutableMap.builder();
        for (NodeId node : graph.topologicalOrder().reverseOrder()) {
            Optional<NodeId> slowestChild = Optional.empty();
            Duration tail = Duration.ZERO;
            for (Dependency edge : graph.children(node)) {
                Duration childRemaining = remaining.get(edge.child());
                if (slowestChild.isEmpty() || childRemaining.compareTo(tail) > 0) {
                    slowestChild = Optional.of(edge.child());
                    tail = childRemaining;
                }
            }
            slowestChild.ifPresent(child -> next.put(node, child));
            remaining.put(node, durations.get(node).plus(tail));
        }
        return new CriticalPath(graph.nodes(), ImmutableMap.copyOf(remaining), next.buildOrThrow());
    }

    /** The time from the node's start to the end of its slowest chain of descendants. */
    public Duration remaining(NodeId node) {
        requireNonNull(node, "node is null");
        Duration duration = remaining.get(node);
        checkArgument(duration != null, "unknown node '%s'", node);
        return duration;
    }

    /** The length of the whole critical path: the longest remaining time of any node. */
    public Duration length() {
        return start().map(this::remaining).orElse(Duration.ZERO);
    }

    /** The critical path, from its first node to a leaf; empty for an empty graph. */
    public ImmutableList<NodeId> path() {
        return start().map(this::pathFrom).orElse(ImmutableList.of());
    }

    /** The slowest chain from {@code node} to a leaf, {@code node} first. */
    public ImmutableList<NodeId> pathFrom(NodeId node) {
        remaining(node);
        ImmutableList.Builder<NodeId> path = ImmutableList.builder();
        for (NodeId current = node; current != null; current = next.get(current)) {
            path.add(current);
        }
        return path.build();
    }

    /** Longest remaining path first, then by node id. */
    public Comparator<NodeId> longestFirst() {
        return Comparator.comparing(this::remaining, Comparator.reverseOrder()).thenComparing(Comparator.naturalOrder());
    }

    private Optional<NodeId> start() {
        return nodes.stream().min(longestFirst());
    }
}
