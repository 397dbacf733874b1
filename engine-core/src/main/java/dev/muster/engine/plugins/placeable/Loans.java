package dev.muster.engine.plugins.placeable;

import dev.muster.engine.framework.DeservedShare;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What queues hold above their deserved share (their loans, by the session's {@link DeservedShare}
 * plugins), per node: what {@code reclaim} could take back for a queue still under its share. Running,
 * preemptable tasks of reclaimable queues only, as reclaim takes. Not thread-safe: one per session.
 */
final class Loans {
    private final Map<QueueName, Resources> allocated = new HashMap<>();
    private final Map<QueueName, Resources> deserved = new HashMap<>();

    Loans(Session session) {
        List<DeservedShare> shares = session.plugins().all(DeservedShare.class);
        for (JobState job : session.jobs()) {
            allocated.merge(job.queue(), job.allocated(), Resources::add);
            if (!deserved.containsKey(job.queue())) {
                for (DeservedShare share : shares) {
                    Optional<Resources> queueShare = share.deserved(job.queue());
                    if (queueShare.isPresent()) {
                        deserved.put(job.queue(), queueShare.get());
                        break;
                    }
                }
            }
        }
    }

    /** Whether the queue, with this much more, stays within its deserved share (so it may reclaim loans). */
    boolean withinShare(QueueName queue, Resources more) {
        Resources share = deserved.get(queue);
        return share != null && allocated.getOrDefault(queue, Resources.EMPTY).add(more).lessEqual(share, Resources.Missing.ZERO);
    }

    /** The loans on the node: tasks of queues above their deserved share that reclaim could evict. */
    Resources on(Session session, NodeState node) {
        Resources loans = Resources.EMPTY;
        for (TaskState task : node.tasks()) {
            if (task.status() != TaskStatus.RUNNING || !task.task().preemptable()) {
                continue;
            }
            QueueName queue = task.job().queue();
            Resources share = deserved.get(queue);
            boolean reclaimable = session.queue(queue).map(Queue::reclaimable).orElse(false);
            if (reclaimable && share != null && !allocated.getOrDefault(queue, Resources.EMPTY).lessEqual(share, Resources.Missing.ZERO)) {
                loans = loans.add(task.request());
            }
        }
        return loans;
    }
}
