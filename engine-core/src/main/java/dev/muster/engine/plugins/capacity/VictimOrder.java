package dev.muster.engine.plugins.capacity;

import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.Queue;
import java.util.Comparator;
import java.util.Optional;

/**
 * The order in which victims are considered for a preemptor (Volcano's
 * {@code Session.BuildVictimsPriorityQueue}): within a job, the task the task order puts last goes
 * first; across queues, the victim-queue order for the preemptor's queue decides (without an opinion,
 * the reverse of the queue order); otherwise the job the job order puts last, then the reverse task order.
 */
final class VictimOrder {
    private VictimOrder() {}

    static Comparator<TaskState> forPreemptor(Session session, TaskState preemptor) {
        Comparator<TaskState> taskOrder = session.taskOrder();
        Comparator<Queue> queueOrder = session.queueOrder();
        Optional<Queue> preemptorQueue = session.queue(preemptor.job().queue());
        return (left, right) -> {
            JobState leftJob = left.job();
            JobState rightJob = right.job();
            if (leftJob == rightJob) {
                return -taskOrder.compare(left, right);
            }
            Optional<Queue> leftQueue = session.queue(leftJob.queue());
            Optional<Queue> rightQueue = session.queue(rightJob.queue());
            if (preemptorQueue.isPresent() && leftQueue.isPresent() && rightQueue.isPresent()
                    && !leftJob.queue().equals(rightJob.queue())) {
                int byVictimQueue = session.plugins().compareVictimQueues(leftQueue.get(), rightQueue.get(), preemptorQueue.get());
                return byVictimQueue != 0 ? byVictimQueue : -queueOrder.compare(leftQueue.get(), rightQueue.get());
            }
            int byJob = session.plugins().compareJobs(leftJob, rightJob);
            return byJob != 0 ? -byJob : -taskOrder.compare(left, right);
        };
    }
}
