package dev.muster.engine.actions;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.Action;
import dev.muster.engine.framework.ActionFactory;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NoArgs;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.Statement;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.TaskStatus;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Places pending tasks of admitted jobs, a gang at a time: queues in queue order, the best job of the
 * popped queue, its tasks in task order into one {@link Statement}, committed when the job is ready,
 * kept as a reservation when it is only pipelined, discarded otherwise. A ready job with tasks left
 * goes back into its queue, so growth beyond the gang minimum interleaves fairly with other jobs.
 */
public final class AllocateAction implements Action {
    public static final String NAME = "allocate";

    private static final Logger log = LoggerFactory.getLogger(AllocateAction.class);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Session session) {
        boolean enqueueConfigured = session.hasAction(EnqueueAction.NAME);
        PriorityQueue<Queue> queues = new PriorityQueue<>(session.queueOrder());
        Map<QueueName, PriorityQueue<JobState>> jobsByQueue = new HashMap<>();
        Map<JobState, PriorityQueue<TaskState>> worksheets = new HashMap<>();
        Map<JobState, JobWorksheet> topologyWorksheets = new HashMap<>();
        for (JobState job : session.jobs()) {
            if (job.isPending()) {
                if (enqueueConfigured) {
                    continue;
                }
                // without enqueue, allocate admits pending jobs itself, as Volcano does
                job.setPhase(PodGroupPhase.INQUEUE);
            }
            if (session.jobInvalidReason(job).isPresent()) {
                continue;
            }
            Optional<Queue> queue = session.queue(job.queue());
            if (queue.isEmpty()) {
                continue;
            }
            if (job.containsNetworkTopology() && !session.hyperNodesReady()) {
                String note = "the network topology cannot be resolved: " + String.join("; ", session.hyperNodes().problems());
                job.tasksWithStatus(TaskStatus.PENDING).forEach(task -> job.recordQueueNote(task.id(), note));
                continue;
            }
            if (placedByTopology(job)) {
                JobWorksheet worksheet = JobWorksheet.of(session, job);
                if (worksheet.isEmpty()) {
                    continue;
                }
                topologyWorksheets.put(job, worksheet);
                jobsByQueue.computeIfAbsent(job.queue(), ignored -> {
                    queues.add(queue.get());
                    return new PriorityQueue<>(session.jobOrder());
                }).add(job);
                continue;
            }
            PriorityQueue<TaskState> tasks = new PriorityQueue<>(session.taskOrder());
            for (TaskState task : job.tasksWithStatus(TaskStatus.PENDING)) {
                if (!task.task().gated() && !task.bestEffort()) {
                    tasks.add(task);
                }
            }
            if (tasks.isEmpty()) {
                continue;
            }
            PriorityQueue<JobState> jobs = jobsByQueue.get(job.queue());
            if (jobs == null) {
                jobs = new PriorityQueue<>(session.jobOrder());
                jobsByQueue.put(job.queue(), jobs);
                queues.add(queue.get());
            }
            jobs.add(job);
            worksheets.put(job, tasks);
        }

        NodePicker picker = new NodePicker(session);
        TopologyAllocator topology = new TopologyAllocator(session, picker);
        while (!queues.isEmpty()) {
            Queue queue = queues.poll();
            if (session.plugins().isOverused(queue)) {
                log.debug("queue={} is overused, skipped for the rest of allocate", queue.name());
                continue;
            }
            PriorityQueue<JobState> jobs = jobsByQueue.get(queue.name());
            if (jobs == null || jobs.isEmpty()) {
                continue;
            }
            JobState job = jobs.poll();
            if (topologyWorksheets.containsKey(job)) {
                JobWorksheet worksheet = topologyWorksheets.get(job);
                Optional<Statement> statement = topology.allocate(queue, job, worksheet);
                if (statement.isPresent() && session.plugins().isJobReady(job)) {
                    statement.get().commit();
                    topology.committed(job);
                    if (!worksheet.isEmpty()) {
                        jobs.add(job);
                    }
                }
                queues.add(queue);
                continue;
            }
            PriorityQueue<TaskState> tasks = worksheets.get(job);
            Optional<Statement> statement = allocateTasks(session, picker, queue, job, tasks);
            if (statement.isPresent() && session.plugins().isJobReady(job)) {
                statement.get().commit();
                if (!tasks.isEmpty()) {
                    jobs.add(job);
                }
            }
            queues.add(queue);
        }
    }

    /** Jobs with a hard topology (soft ones are made hard when the session opens) or subgroups go hypernode by hypernode. */
    private static boolean placedByTopology(JobState job) {
        return job.containsHardTopology() || job.hasSubGroupPolicy();
    }

    private Optional<Statement> allocateTasks(Session session, NodePicker picker, Queue queue, JobState job, PriorityQueue<TaskState> tasks) {
        Statement statement = session.newStatement();
        Set<String> failedRoles = new HashSet<>();
        for (TaskState failed : job.tasks()) {
            if (job.fitErrors().containsKey(failed.id())) {
                failedRoles.add(failed.task().role());
            }
        }
        QueueRefusal refusal = new QueueRefusal(session, picker, session.nodes());
        while (!tasks.isEmpty()) {
            TaskState task = tasks.poll();
            if (!session.plugins().isAllocatable(queue, task)) {
                // a note, not a fit error: the task was not tried on the nodes, so its role is not failed
                job.recordQueueNote(task.id(), refusal.reason(queue, task));
                continue;
            }
            String role = task.task().role();
            if (!role.isEmpty() && failedRoles.contains(role)) {
                job.recordFitError(task.id(), "another task of role " + role + " already fit no node");
                continue;
            }
            Optional<String> prefilter = session.plugins().prefilter(task);
            if (prefilter.isPresent()) {
                job.recordFitError(task.id(), prefilter.get());
                failedRoles.add(role);
                if (GangRules.needContinueAllocating(job, failedRoles)) {
                    continue;
                }
                break;
            }
            NodePicker.Filtered filtered = picker.filter(task, session.nodes(), true);
            if (filtered.feasible().isEmpty()) {
                job.recordFitError(task.id(), filtered.errors().describe(session.nodes().size()));
                failedRoles.add(role);
                if (GangRules.needContinueAllocating(job, failedRoles)) {
                    continue;
                }
                break;
            }
            Optional<NodeState> best = picker.best(task, filtered.feasible());
            if (best.isEmpty()) {
                continue;
            }
            NodeState node = best.get();
            NodePicker.allocateOrPipeline(statement, task, node);
            if (session.plugins().isJobReady(job)) {
                break;
            }
        }
        if (session.plugins().isJobReady(job) || session.plugins().isJobPipelined(job)) {
            return Optional.of(statement);
        }
        job.recordAttempt(statement.placedCount());
        statement.discard();
        return Optional.empty();
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
            return new AllocateAction();
        }
    }
}
