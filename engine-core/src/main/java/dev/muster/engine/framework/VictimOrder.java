package dev.muster.engine.framework;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.Queue;
import java.util.Comparator;
import java.util.Optional;

/**
 * The order in which victims are evicted for a preemptor, first evicted first (Volcano's
 * {@code BuildVictimsPriorityQueue}):
 *
 * <ol>
 *   <li>tasks of different jobs: first the plugins' {@link VictimTaskOrder}, when one has an opinion;
 *   <li>two tasks of one job: the reverse of the task order, so the job's least important task goes first;
 *   <li>tasks of different queues: the victim-queue order for the preemptor's queue, which without a
 *       plugin's opinion is the reverse of the queue order;
 *   <li>tasks of different jobs in one queue: the reverse of the plugins' job order, then the reverse
 *       of the task order (the jobs' creation time and uid are not consulted).
 * </ol>
 */
public final class VictimOrder implements Comparator<TaskState> {
    private final Session session;
    private final TaskState preemptor;
    private final Optional<Queue> preemptorQueue;
    private final Comparator<TaskState> taskOrder;
    private final Comparator<Queue> queueOrder;

    private VictimOrder(Session session, TaskState preemptor) {
        this.session = requireNonNull(session, "session is null");
        this.preemptor = preemptor;
        this.preemptorQueue = session.queue(preemptor.job().queue());
        this.taskOrder = session.taskOrder();
        this.queueOrder = session.queueOrder();
    }

    /** The victim order for one preemptor (or reclaimer). */
    public static Comparator<TaskState> forPreemptor(Session session, TaskState preemptor) {
        return new VictimOrder(session, requireNonNull(preemptor, "preemptor is null"));
    }

    @Override
    public int compare(TaskState left, TaskState right) {
        if (left.job() == right.job()) {
            return taskOrder.compare(right, left);
        }
        int byVictimOrder = session.plugins().compareVictimTasks(left, right, preemptor);
        if (byVictimOrder != 0) {
            return byVictimOrder;
        }
        Optional<Queue> leftQueue = session.queue(left.job().queue());
        Optional<Queue> rightQueue = session.queue(right.job().queue());
        if (preemptorQueue.isPresent() && leftQueue.isPresent() && rightQueue.isPresent()
                && !leftQueue.get().name().equals(rightQueue.get().name())) {
            int byPlugins = session.plugins().compareVictimQueues(leftQueue.get(), rightQueue.get(), preemptorQueue.get());
            if (byPlugins != 0) {
                return byPlugins;
            }
            return queueOrder.compare(rightQueue.get(), leftQueue.get());
        }
        int byJob = session.plugins().compareJobs(left.job(), right.job());
        if (byJob != 0) {
            return Integer.compare(0, byJob);
        }
        return taskOrder.compare(right, left);
    }
}
