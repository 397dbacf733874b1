package dev.muster.runtime.binding;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import java.util.EnumMap;
import java.util.Map;

/**
 * A Queue's {@code status} after a session, as Volcano writes it: {@code state} (kept as it is, Open
 * when unset), {@code allocated} (what the queue's pods hold, counting this cycle's binds), and how
 * many of its PodGroups are in each phase.
 */
final class QueueStatus {
    private QueueStatus() {}

    static ObjectNode desired(ObjectNode current, Queue queue, ClusterSnapshot snapshot, SessionResult result) {
        Resources allocated = Resources.EMPTY;
        Map<PodGroupPhase, Integer> phases = new EnumMap<>(PodGroupPhase.class);
        for (Job job : snapshot.jobs().values()) {
            if (!job.queue().equals(queue.name())) {
                continue;
            }
            SessionResult.JobOutcome outcome = result.jobs().get(job.id());
            phases.merge(outcome == null ? job.phase() : outcome.phase(), 1, Integer::sum);
            for (Task task : job.tasks()) {
                if (task.status().isAllocated() || bound(result.binds(), task.id())) {
                    allocated = allocated.add(task.request());
                }
            }
        }
        ObjectNode status = current.deepCopy();
        status.put("state", queue.state().text());
        status.set("allocated", resourceList(allocated));
        status.put("pending", phases.getOrDefault(PodGroupPhase.PENDING, 0));
        status.put("inqueue", phases.getOrDefault(PodGroupPhase.INQUEUE, 0));
        status.put("running", phases.getOrDefault(PodGroupPhase.RUNNING, 0));
        status.put("unknown", phases.getOrDefault(PodGroupPhase.UNKNOWN, 0));
        status.put("completed", phases.getOrDefault(PodGroupPhase.COMPLETED, 0));
        return status;
    }

    /** A Kubernetes ResourceList: each non-zero dimension in Kubernetes units. */
    static ObjectNode resourceList(Resources resources) {
        ObjectNode list = JsonNodeFactory.instance.objectNode();
        for (String name : resources.names()) {
            if (resources.get(name) > Resources.EPSILON) {
                list.put(name, resources.format(name));
            }
        }
        return list;
    }

    private static boolean bound(Map<TaskId, NodeName> binds, TaskId task) {
        return binds.containsKey(task);
    }
}
