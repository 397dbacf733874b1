package dev.muster.engine.actions;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.Queue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Names what keeps a task its queue refuses from running, the first constraint that binds (issue 18):
 * a limit set on the queue (its state, capability, what other queues' guarantees leave it), else no
 * node with room (which resource, how close the nodes come), else the share other queues' demand
 * leaves it. The nodes are asked once per request and filters, without moving the round-robin start,
 * so asking changes no placement. It remembers the nodes' room, so it lives while they do not change
 * (one job's attempt in allocate, the whole enqueue action); not thread-safe.
 */
final class QueueRefusal {
    private final Session session;
    private final NodePicker picker;
    private final List<NodeState> nodes;
    private final Map<List<Object>, Optional<String>> noRoom = new HashMap<>();

    QueueRefusal(Session session, NodePicker picker, List<NodeState> nodes) {
        this.session = requireNonNull(session, "session is null");
        this.picker = requireNonNull(picker, "picker is null");
        this.nodes = requireNonNull(nodes, "nodes is null");
    }

    /** Why the queue's refusal of the task is what it waits for, or what it waits for first. */
    String reason(Queue queue, TaskState task) {
        Optional<String> limit = session.plugins().refusals().queueLimit(queue, task);
        if (limit.isPresent()) {
            return limit.get();
        }
        Optional<String> room = noRoom(task);
        if (room.isPresent()) {
            return room.get();
        }
        return session.plugins().refusals().notAllocatable(queue, task)
                .orElse("queue " + queue.name() + " cannot take " + task.request() + " now");
    }

    /** {@code 0/4 nodes are available: 4 Insufficient nvidia.com/gpu (asks 8, ...)} when no node has room for the task. */
    Optional<String> noRoom(TaskState task) {
        Optional<List<Object>> filters = session.plugins().filterKey(task);
        if (filters.isEmpty()) {
            return whyNoRoom(task);
        }
        return noRoom.computeIfAbsent(List.of(task.initRequest(), filters.get()), ignored -> whyNoRoom(task));
    }

    private Optional<String> whyNoRoom(TaskState task) {
        return picker.whyNoNodeFits(task, nodes).map(errors -> errors.describe(nodes.size()));
    }
}
