package dev.muster.graph;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.joining;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One execution of a {@link JobGraph}: the state of every node, fed by its owner (the job
 * controller, a workflow bridge, the simulator), and what follows from it.
 *
 * <p>A node is <em>ready</em> when it is {@link NodeState#PENDING} and its {@link Join} over the
 * incoming edges is satisfied; readiness reflects the current parent states, so a ready node whose
 * parent then fails may stop being ready. A pending node whose edges can never be satisfied (a
 * parent failed where success was needed) is marked {@link NodeState#SKIPPED} at once, with a
 * reason, and its own children are evaluated in turn: a workflow stops its descendants with a clear
 * status, and edges that accept a skipped parent (Airflow {@code all_done}) still release theirs.
 *
 * <p>States only move forward (see {@link NodeState#canBecome}); repeating the current state is a
 * no-op. The run records what its owner reports and does not refuse a node started before it was
 * ready. Not thread-safe.
 */
public final class GraphRun {
    private enum Verdict {
        READY,
        WAITING,
        UNREACHABLE
    }

    private final JobGraph graph;
    private final Map<NodeId, NodeState> states = new HashMap<>();
    private final SortedMap<NodeId, String> skipReasons = new TreeMap<>();
    private final SortedSet<NodeId> ready = new TreeSet<>();

    /** A run in which every node is pending and the roots are ready. */
    public GraphRun(JobGraph graph) {
        this.graph = requireNonNull(graph, "graph is null");
        graph.nodes().forEach(node -> states.put(node, NodeState.PENDING));
        ready.addAll(graph.roots());
    }

    public JobGraph graph() {
        return graph;
    }

    public NodeState state(NodeId node) {
        graph.checkKnown(node);
        return states.get(node);
    }

    /** Every node's state, by id. */
    public ImmutableSortedMap<NodeId, NodeState> states() {
        return ImmutableSortedMap.copyOf(states);
    }

    /** Pending nodes whose dependencies are met now: the nodes that may start. */
    public ImmutableSortedSet<NodeId> ready() {
        return ImmutableSortedSet.copyOfSorted(ready);
    }

    public boolean isReady(NodeId node) {
        graph.checkKnown(node);
        return ready.contains(node);
    }

    /**
     * The edges a pending node still waits for: those not met yet that can still be met. Empty for a
     * ready node and for a node that is no longer pending.
     */
    public ImmutableList<Dependency> waitingOn(NodeId node) {
        if (state(node) != NodeState.PENDING || ready.contains(node)) {
            return ImmutableList.of();
        }
        return graph.parents(node).stream()
                .filter(edge -> !edge.isMetBy(states.get(edge.parent())))
                .filter(edge -> edge.condition().canBeMetFrom(states.get(edge.parent())))
                .collect(ImmutableList.toImmutableList());
    }

    /** Why a skipped node will not run; empty unless the node is skipped. */
    public Optional<String> skipReason(NodeId node) {
        graph.checkKnown(node);
        return Optional.ofNullable(skipReasons.get(node));
    }

    /** Every skipped node with its reason. */
    public ImmutableSortedMap<NodeId, String> skipped() {
        return ImmutableSortedMap.copyOfSorted(skipReasons);
    }

    /** Whether every node is in a final state. */
    public boolean isFinished() {
        return states.values().stream().allMatch(NodeState::isFinal);
    }

    public StateChanges markRunning(NodeId node) {
        return update(node, NodeState.RUNNING);
    }

    public StateChanges markSucceeded(NodeId node) {
        return update(node, NodeState.SUCCEEDED);
    }

    public StateChanges markFailed(NodeId node) {
        return update(node, NodeState.FAILED);
    }

    /** Skips a node that its owner decided not to run (an Argo {@code when}, a cancelled step). */
    public StateChanges markSkipped(NodeId node, String reason) {
        requireNonNull(reason, "reason is null");
        return apply(node, NodeState.SKIPPED, reason);
    }

    /**
     * Records a node's new state, for owners that observe states rather than cause them. A node
     * skipped this way gets the reason {@code skipped}; {@link #markSkipped} gives a better one.
     *
     * @throws IllegalArgumentException for an unknown node or a state the node cannot move to
     */
    public StateChanges update(NodeId node, NodeState state) {
        return apply(node, state, "skipped");
    }

    private StateChanges apply(NodeId node, NodeState next, String reason) {
        requireNonNull(next, "next is null");
        NodeState current = state(node);
        if (current == next) {
            return StateChanges.NONE;
        }
        checkArgument(current.canBecome(next), "node %s: cannot go from %s to %s", node, current.displayName(), next.displayName());
        record(node, next, reason);

        SortedSet<NodeId> newlyReady = new TreeSet<>();
        SortedMap<NodeId, String> newlySkipped = new TreeMap<>();
        Deque<NodeId> changed = new ArrayDeque<>(List.of(node));
        while (!changed.isEmpty()) {
            for (Dependency edge : graph.children(changed.pop())) {
                NodeId child = edge.child();
                if (states.get(child) != NodeState.PENDING) {
                    continue;
                }
                switch (evaluate(child)) {
                    case READY -> {
                        if (ready.add(child)) {
                            newlyReady.add(child);
                        }
                    }
                    case WAITING -> {
                        ready.remove(child);
                        newlyReady.remove(child);
                    }
                    case UNREACHABLE -> {
                        String why = unreachableReason(child);
                        record(child, NodeState.SKIPPED, why);
                        newlyReady.remove(child);
                        newlySkipped.put(child, why);
                        changed.push(child);
                    }
                }
            }
        }
        return new StateChanges(ImmutableSortedSet.copyOfSorted(newlyReady), ImmutableSortedMap.copyOfSorted(newlySkipped));
    }

    private void record(NodeId node, NodeState state, String reason) {
        states.put(node, state);
        ready.remove(node);
        if (state == NodeState.SKIPPED) {
            skipReasons.put(node, reason);
        }
    }

    private Verdict evaluate(NodeId node) {
        ImmutableList<Dependency> parents = graph.parents(node);
        int met = 0;
        int hopeless = 0;
        for (Dependency edge : parents) {
            NodeState parentState = states.get(edge.parent());
            if (edge.isMetBy(parentState)) {
                met++;
            } else if (!edge.condition().canBeMetFrom(parentState)) {
                hopeless++;
            }
        }
        return switch (graph.join(node)) {
            case ALL -> verdict(met == parents.size(), hopeless > 0);
            case ANY -> verdict(parents.isEmpty() || met > 0, hopeless == parents.size());
        };
    }

    private static Verdict verdict(boolean satisfied, boolean hopeless) {
        if (satisfied) {
            return Verdict.READY;
        }
        return hopeless ? Verdict.UNREACHABLE : Verdict.WAITING;
    }

    /** {@code a failed, needed succeeded}; for an any-join, every parent is named. */
    private String unreachableReason(NodeId node) {
        String unmet = graph.parents(node).stream()
                .filter(edge -> !edge.condition().canBeMetFrom(states.get(edge.parent())))
                .map(edge -> edge.parent() + " " + states.get(edge.parent()).displayName() + ", needed " + edge.condition())
                .collect(joining("; "));
        return switch (graph.join(node)) {
            case ALL -> unmet;
            case ANY -> "no parent can meet its condition: " + unmet;
        };
    }
}
