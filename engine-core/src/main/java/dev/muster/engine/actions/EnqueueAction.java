package dev.muster.engine.actions;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Suppliers;
import dev.muster.engine.framework.Action;
import dev.muster.engine.framework.ActionFactory;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NoArgs;
import dev.muster.engine.framework.Refusals;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.TaskStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.function.Supplier;

/**
 * Admits pending jobs into their queues (phase Pending to Inqueue) when the admission plugins
 * allow: round-robin over queues in queue order, the best pending job of each in turn. A job the
 * plugins reject stays Pending for this session and does not block its queue. Jobs whose objects
 * have problems are never admitted.
 */
public final class EnqueueAction implements Action {
    public static final String NAME = "enqueue";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Session session) {
        PriorityQueue<Queue> queues = new PriorityQueue<>(session.queueOrder());
        Map<QueueName, PriorityQueue<JobState>> pending = new HashMap<>();
        for (JobState job : session.jobs()) {
            Optional<Queue> queue = session.queue(job.queue());
            if (queue.isEmpty()) {
                continue;
            }
            if (!pending.containsKey(job.queue())) {
                pending.put(job.queue(), new PriorityQueue<>(session.jobOrder()));
                queues.add(queue.get());
            }
            if (job.isPending() && job.job().problems().isEmpty()) {
                pending.get(job.queue()).add(job);
            }
        }
        // admission moves no pod, so the nodes' room stays as it is for the whole action
        Supplier<QueueRefusal> refusal = Suppliers.memoize(() -> new QueueRefusal(session, new NodePicker(session), session.nodes()));
        while (!queues.isEmpty()) {
            Queue queue = queues.poll();
            PriorityQueue<JobState> jobs = pending.get(queue.name());
            if (jobs.isEmpty()) {
                continue;
            }
            JobState job = jobs.poll();
            if (job.job().minResources().isEmpty() || session.plugins().isJobEnqueueable(job)) {
                session.plugins().jobEnqueued(job);
                job.setPhase(PodGroupPhase.INQUEUE);
            } else {
                job.recordAdmissionNote("not admitted to queue " + queue.name() + ": " + rejection(session, refusal, job));
            }
            queues.add(queue);
        }
    }

    /**
     * Why the job is not admitted: unless a limit set on its queue refuses it, the nodes say so first when
     * none has room for one of its pending tasks (which resource, how close they come); else the plugin.
     */
    private static String rejection(Session session, Supplier<QueueRefusal> refusal, JobState job) {
        Refusals refusals = session.plugins().refusals();
        if (refusals.enqueueRejectedForRoom(job)) {
            for (TaskState task : job.tasksWithStatus(TaskStatus.PENDING)) {
                Optional<String> noRoom = task.task().gated() ? Optional.empty() : refusal.get().noRoom(task);
                if (noRoom.isPresent()) {
                    return noRoom.get();
                }
            }
        }
        return refusals.enqueueRejection(job).orElse("an admission check rejects it");
    }

    /** Builds the action; it takes no arguments. */
    public static final class Factory implements ActionFactory<NoArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<NoArgs> argsType() {
            return NoArgs.class;
        }

        @Override
        public NoArgs defaultArgs() {
            return NoArgs.INSTANCE;
        }

        @Override
        public Action create(NoArgs args) {
            requireNonNull(args, "args is null");
            return new EnqueueAction();
        }
    }
}
