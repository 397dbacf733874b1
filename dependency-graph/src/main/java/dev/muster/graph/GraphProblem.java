package dev.muster.graph;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.joining;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedSet;

/** One thing wrong with a graph; {@link GraphBuilder#validate()} reports all of them at once. */
public sealed interface GraphProblem
        permits GraphProblem.Cycle, GraphProblem.UnknownNode, GraphProblem.SelfEdge,
                GraphProblem.DuplicateNode, GraphProblem.DuplicateEdge {
    /** The problem in one line, naming the nodes involved. */
    String message();

    /**
     * Nodes that depend on each other in a circle. {@code path} is one shortest cycle through the
     * smallest member, first node repeated at the end; {@code members} is the whole strongly connected
     * component, which may hold more nodes than one cycle visits.
     */
    record Cycle(ImmutableList<NodeId> path, ImmutableSortedSet<NodeId> members) implements GraphProblem {
        public Cycle {
            path = ImmutableList.copyOf(requireNonNull(path, "path is null"));
            members = ImmutableSortedSet.copyOf(requireNonNull(members, "members is null"));
            checkArgument(path.size() >= 3 && path.get(0).equals(path.get(path.size() - 1)),
                    "a cycle path starts and ends at the same node: %s", path);
            checkArgument(members.containsAll(path), "cycle path %s leaves its members %s", path, members);
        }

        @Override
        public String message() {
            String cycle = "cycle: " + path.stream().map(NodeId::toString).collect(joining(" -> "));
            if (members.size() == path.size() - 1) {
                return cycle;
            }
            return cycle + " (strongly connected: " + members.stream().map(NodeId::toString).collect(joining(", ")) + ")";
        }
    }

    /** An edge names a node that was never declared. */
    record UnknownNode(Dependency edge, NodeId node) implements GraphProblem {
        public UnknownNode {
            requireNonNull(edge, "edge is null");
            requireNonNull(node, "node is null");
        }

        @Override
        public String message() {
            return "edge " + edge.parent() + " -> " + edge.child() + ": unknown node '" + node + "'";
        }
    }

    /** A node depends on itself. */
    record SelfEdge(NodeId node) implements GraphProblem {
        public SelfEdge {
            requireNonNull(node, "node is null");
        }

        @Override
        public String message() {
            return "self-edge on " + node;
        }
    }

    /** A node declared twice. */
    record DuplicateNode(NodeId node) implements GraphProblem {
        public DuplicateNode {
            requireNonNull(node, "node is null");
        }

        @Override
        public String message() {
            return "duplicate node '" + node + "'";
        }
    }

    /** Two edges between the same parent and child; give one edge a wider {@link Condition} instead. */
    record DuplicateEdge(NodeId parent, NodeId child) implements GraphProblem {
        public DuplicateEdge {
            requireNonNull(parent, "parent is null");
            requireNonNull(child, "child is null");
        }

        @Override
        public String message() {
            return "duplicate edge " + parent + " -> " + child;
        }
    }
}
