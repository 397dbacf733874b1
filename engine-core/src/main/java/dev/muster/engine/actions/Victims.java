package dev.muster.engine.actions;

import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.framework.VictimOrder;
import dev.muster.engine.model.Resources;
import java.util.List;
import java.util.PriorityQueue;

/** What preempt and reclaim share about victims on one node. */
final class Victims {
    private Victims() {}

    /**
     * Whether evicting every victim would free enough of the node for the task: its future idle plus
     * the victims' requests covers the task's request (Volcano's {@code ValidateVictims}). With no
     * victims this holds when the future idle alone is enough.
     */
    static boolean couldMakeRoom(TaskState task, NodeState node, List<TaskState> victims) {
        Resources available = node.futureIdle();
        for (TaskState victim : victims) {
            available = available.add(victim.request());
        }
        return fits(task, available, node.futureIdlePods() + victims.size());
    }

    /**
     * Whether the task fits what will be free: its request and one pod slot (in Volcano every task
     * requests one unit of the node's {@code pods}, and an evicted pod gives its slot back).
     */
    static boolean fits(TaskState task, Resources available, int availablePods) {
        return availablePods >= 1 && task.initRequest().lessEqual(available, Resources.Missing.ZERO);
    }

    /** The victims in the order they are evicted for the task, first evicted first. */
    static PriorityQueue<TaskState> inEvictionOrder(Session session, TaskState task, List<TaskState> victims) {
        PriorityQueue<TaskState> queue = new PriorityQueue<>(Math.max(1, victims.size()), VictimOrder.forPreemptor(session, task));
        queue.addAll(victims);
        return queue;
    }
}
