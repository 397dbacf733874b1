package dev.muster.engine.plugins.networktopologyaware;

import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The resources of each hypernode, summed over its nodes when the session opens: allocatable, idle and
 * future idle as they were then, and used as allocations change it (Volcano's hypernode resource cache,
 * whose idle figures also stay as at session open). Not thread-safe: one per plugin instance.
 */
final class HyperNodeUsage {
    /** One hypernode's resources. */
    record Status(Resources allocatable, Resources used, Resources idle, Resources futureIdle) {
        Status add(NodeState node) {
            return new Status(allocatable.add(node.allocatable()), used.add(node.used()), idle.add(node.idle()),
                    futureIdle.add(node.futureIdle()));
        }

        Status withUsed(Resources newUsed) {
            return new Status(allocatable, newUsed, idle, futureIdle);
        }
    }

    private static final Status EMPTY = new Status(Resources.EMPTY, Resources.EMPTY, Resources.EMPTY, Resources.EMPTY);

    private final Map<String, Status> statuses = new HashMap<>();
    private final Map<NodeName, List<String>> hyperNodesOfNode = new HashMap<>();

    HyperNodeUsage(Session session) {
        for (String hyperNode : session.hyperNodes().hyperNodes()) {
            Status status = EMPTY;
            for (NodeState node : session.nodesOf(hyperNode)) {
                status = status.add(node);
                hyperNodesOfNode.computeIfAbsent(node.name(), ignored -> new ArrayList<>()).add(hyperNode);
            }
            statuses.put(hyperNode, status);
        }
    }

    Optional<Status> status(String hyperNode) {
        return Optional.ofNullable(statuses.get(hyperNode));
    }

    void allocated(TaskState task) {
        task.node().ifPresent(node -> change(node, task.request(), true));
    }

    void deallocated(TaskState task) {
        task.node().ifPresent(node -> change(node, task.request(), false));
    }

    private void change(NodeName node, Resources request, boolean add) {
        for (String hyperNode : hyperNodesOfNode.getOrDefault(node, List.of())) {
            Status status = statuses.get(hyperNode);
            statuses.put(hyperNode, status.withUsed(add ? status.used().add(request) : status.used().subtract(request)));
        }
    }
}
