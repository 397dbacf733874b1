package dev.muster.graph;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSetMultimap;
import com.google.common.collect.ImmutableSortedSet;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds every cycle of a directed graph: one per strongly connected component of two or more nodes
 * (Tarjan's algorithm, iterative so that long chains do not overflow the stack).
 */
final class Cycles {
    private final ImmutableSetMultimap<NodeId, NodeId> successors;
    private final Map<NodeId, Integer> index = new HashMap<>();
    private final Map<NodeId, Integer> lowLink = new HashMap<>();
    private final Deque<NodeId> stack = new ArrayDeque<>();
    private final Set<NodeId> onStack = new HashSet<>();
    private final List<ImmutableSortedSet<NodeId>> components = new ArrayList<>();

    private Cycles(ImmutableSetMultimap<NodeId, NodeId> successors) {
        this.successors = requireNonNull(successors, "successors is null");
    }

    /**
     * The cycles among {@code nodes}, ordered by their smallest member. {@code successors} must not
     * hold self-edges; iterating its values in node order makes the reported paths deterministic.
     */
    static ImmutableList<GraphProblem.Cycle> find(ImmutableSortedSet<NodeId> nodes, ImmutableSetMultimap<NodeId, NodeId> successors) {
        Cycles search = new Cycles(successors);
        for (NodeId node : nodes) {
            if (!search.index.containsKey(node)) {
                search.connect(node);
            }
        }
        return search.components.stream()
                .filter(component -> component.size() > 1)
                .sorted((left, right) -> left.first().compareTo(right.first()))
                .map(search::cycleThrough)
                .collect(ImmutableList.toImmutableList());
    }

    private record Frame(NodeId node, Iterator<NodeId> next) {}

    private void connect(NodeId start) {
        Deque<Frame> calls = new ArrayDeque<>();
        calls.push(enter(start));
        while (!calls.isEmpty()) {
            Frame frame = calls.peek();
            if (frame.next().hasNext()) {
                NodeId successor = frame.next().next();
                if (!index.containsKey(successor)) {
                    calls.push(enter(successor));
                } else if (onStack.contains(successor)) {
                    lowLink.merge(frame.node(), index.get(successor), Math::min);
                }
                continue;
            }
            calls.pop();
            if (!calls.isEmpty()) {
                lowLink.merge(calls.peek().node(), lowLink.get(frame.node()), Math::min);
            }
            if (lowLink.get(frame.node()).equals(index.get(frame.node()))) {
                ImmutableSortedSet.Builder<NodeId> component = ImmutableSortedSet.naturalOrder();
                NodeId member;
                do {
                    member = stack.pop();
                    onStack.remove(member);
                    component.add(member);
                } while (!member.equals(frame.node()));
                components.add(component.build());
            }
        }
    }

    private Frame enter(NodeId node) {
        index.put(node, index.size());
        lowLink.put(node, index.get(node));
        stack.push(node);
        onStack.add(node);
        return new Frame(node, successors.get(node).iterator());
    }

    /** A shortest cycle through the component's smallest node, found breadth first. */
    private GraphProblem.Cycle cycleThrough(ImmutableSortedSet<NodeId> component) {
        NodeId start = component.first();
        Map<NodeId, NodeId> previous = new HashMap<>();
        Deque<NodeId> queue = new ArrayDeque<>();
        queue.add(start);
        while (!queue.isEmpty()) {
            NodeId node = queue.remove();
            for (NodeId successor : successors.get(node)) {
                if (successor.equals(start)) {
                    return new GraphProblem.Cycle(pathTo(node, start, previous), component);
                }
                if (component.contains(successor) && !previous.containsKey(successor)) {
                    previous.put(successor, node);
                    queue.add(successor);
                }
            }
        }
        throw new IllegalStateException("BUG: no cycle through " + start + " in strongly connected " + component);
    }

    private static ImmutableList<NodeId> pathTo(NodeId last, NodeId start, Map<NodeId, NodeId> previous) {
        List<NodeId> reversed = new ArrayList<>();
        reversed.add(start);
        for (NodeId node = last; !node.equals(start); node = previous.get(node)) {
            reversed.add(node);
        }
        reversed.add(start);
        return ImmutableList.copyOf(reversed).reverse();
    }
}
