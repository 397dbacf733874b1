package dev.muster.engine.actions;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.Action;
import dev.muster.engine.framework.ActionFactory;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.TaskStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;

/**
 * Places best-effort tasks (no resource request) of admitted, valid jobs (Volcano's backfill). Pending
 * best-effort tasks are taken, and pipelined ones are first given back their reservation; they are
 * placed in queue order, then job order, then task order. For each task the plugins' filters pick
 * the nodes (no resource check: the task requests nothing), the best-scoring node wins, and the task
 * is allocated at once, outside any statement: its job's allocated tasks are bound as soon as the job
 * is ready.
 */
public final class BackfillAction implements Action {
    public static final String NAME = "backfill";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Session session) {
        NodePicker picker = new NodePicker(session);
        for (TaskState task : bestEffortTasks(session)) {
            JobState job = task.job();
            Optional<String> prefilter = session.plugins().prefilter(task);
            if (prefilter.isPresent()) {
                job.recordFitError(task.id(), prefilter.get());
                continue;
            }
            NodePicker.Filtered filtered = picker.filter(task, session.nodes(), false);
            if (filtered.feasible().isEmpty()) {
                job.recordFitError(task.id(), filtered.errors().describe(session.nodes().size()));
                continue;
            }
            Optional<NodeState> best = picker.highestScore(task, filtered.feasible());
            best.ifPresent(node -> session.allocate(task, node.name()));
        }
    }

    /** The tasks to place, in queue, job and task order; pipelined ones lose their reservation. */
    private static List<TaskState> bestEffortTasks(Session session) {
        PriorityQueue<Queue> queues = new PriorityQueue<>(session.queueOrder());
        Map<QueueName, PriorityQueue<JobState>> jobsByQueue = new HashMap<>();
        Map<JobState, PriorityQueue<TaskState>> tasksByJob = new HashMap<>();
        for (JobState job : session.jobs()) {
            Optional<Queue> queue = session.queue(job.queue());
            if (job.isPending() || session.jobInvalidReason(job).isPresent() || queue.isEmpty()) {
                continue;
            }
            PriorityQueue<TaskState> tasks = new PriorityQueue<>(session.taskOrder());
            for (TaskState task : job.tasksWithStatus(TaskStatus.PENDING)) {
                if (task.bestEffort() && !task.task().gated()) {
                    tasks.add(task);
                }
            }
            for (TaskState task : job.tasksWithStatus(TaskStatus.PIPELINED)) {
                if (task.bestEffort()) {
                    session.unpipeline(task);
                    tasks.add(task);
                }
            }
            if (tasks.isEmpty()) {
                continue;
            }
            tasksByJob.put(job, tasks);
            PriorityQueue<JobState> jobs = jobsByQueue.get(job.queue());
            if (jobs == null) {
                jobs = new PriorityQueue<>(session.jobOrder());
                jobsByQueue.put(job.queue(), jobs);
                queues.add(queue.get());
            }
            jobs.add(job);
        }
        List<TaskState> ordered = new ArrayList<>();
        while (!queues.isEmpty()) {
            PriorityQueue<JobState> jobs = jobsByQueue.get(queues.poll().name());
            while (!jobs.isEmpty()) {
                PriorityQueue<TaskState> tasks = tasksByJob.get(jobs.poll());
                while (!tasks.isEmpty()) {
                    ordered.add(tasks.poll());
                }
            }
        }
        return ordered;
    }

    /** Builds the action; its one argument is accepted for compatibility (see {@link PredicateCacheArgs}). */
    public static final class Factory implements ActionFactory<PredicateCacheArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<PredicateCacheArgs> argsType() {
            return PredicateCacheArgs.class;
        }

        @Override
        public PredicateCacheArgs defaultArgs() {
            return PredicateCacheArgs.DEFAULTS;
        }

        @Override
        public Action create(PredicateCacheArgs args) {
            requireNonNull(args, "args is null");
            return new BackfillAction();
        }
    }
}
