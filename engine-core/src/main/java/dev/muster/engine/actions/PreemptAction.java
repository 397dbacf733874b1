package dev.muster.engine.actions;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.Action;
import dev.muster.engine.framework.ActionFactory;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.Statement;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.TaskStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Evicts tasks within a queue so that its starving jobs can run (Volcano's preempt, normal mode).
 *
 * <p>Preemptors are the jobs that are admitted, valid, starving and have no network topology, grouped
 * by queue. For each queue in queue order:
 *
 * <ol>
 *   <li><b>between jobs</b>: for each preemptor job in job order, one statement; its pending tasks in
 *       task order preempt tasks of other jobs of the same queue while the job starves; the statement
 *       is committed when the job is pipelined, discarded otherwise;
 *   <li><b>within a job</b>: for each of those jobs, each pending task in its own statement preempts
 *       tasks of its own job; the first task that finds no room ends the job's turn.
 * </ol>
 *
 * <p>One task preempts on the nodes where evictions could make room (see {@link NodePicker#filterForEviction}),
 * highest score first. On each node the plugins choose victims among the candidates; if all of them
 * would not free enough, the node is skipped; otherwise victims are evicted in {@link
 * dev.muster.engine.framework.VictimOrder} until the task's queue may take it, its request fits the
 * node's future idle and the plugins' filters pass, and the task is pipelined there. A node that does
 * not work out gives its victims back.
 *
 * <p>A candidate victim is Bound or Running and {@code preemptable}; a best-effort preemptor only
 * takes best-effort victims. A task with {@code preemptionPolicy: Never} preempts nothing.
 *
 * <p>Not implemented: the topology-aware mode ({@code enableTopologyAwarePreemption}, see {@link
 * PreemptArgs}), and the nominated-node check (Muster does not read {@code status.nominatedNodeName}).
 */
public final class PreemptAction implements Action {
    public static final String NAME = "preempt";

    private static final Logger log = LoggerFactory.getLogger(PreemptAction.class);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Session session) {
        Map<QueueName, PriorityQueue<JobState>> preemptors = new HashMap<>();
        Map<QueueName, List<JobState>> underRequest = new LinkedHashMap<>();
        Map<JobState, PriorityQueue<TaskState>> preemptorTasks = new HashMap<>();
        PriorityQueue<Queue> queues = new PriorityQueue<>(session.queueOrder());
        for (JobState job : session.jobs()) {
            Optional<Queue> queue = session.queue(job.queue());
            if (job.isPending() || session.jobInvalidReason(job).isPresent() || queue.isEmpty()
                    || !session.plugins().isJobStarving(job) || job.job().networkTopology().isPresent()) {
                continue;
            }
            if (!preemptors.containsKey(job.queue())) {
                preemptors.put(job.queue(), new PriorityQueue<>(session.jobOrder()));
                queues.add(queue.get());
            }
            preemptors.get(job.queue()).add(job);
            underRequest.computeIfAbsent(job.queue(), name -> new ArrayList<>()).add(job);
            preemptorTasks.put(job, pendingTasks(session, job));
        }

        NodePicker picker = new NodePicker(session);
        while (!queues.isEmpty()) {
            Queue queue = queues.poll();
            PriorityQueue<JobState> jobs = preemptors.get(queue.name());
            while (!jobs.isEmpty()) {
                preemptBetweenJobs(session, picker, queue, jobs.poll(), preemptorTasks);
            }
            for (JobState job : underRequest.get(queue.name())) {
                preemptWithinJob(session, picker, queue, job);
            }
        }
    }

    private static void preemptBetweenJobs(Session session, NodePicker picker, Queue queue, JobState job,
            Map<JobState, PriorityQueue<TaskState>> preemptorTasks) {
        Statement statement = session.newStatement();
        PriorityQueue<TaskState> tasks = preemptorTasks.get(job);
        while (session.plugins().isJobStarving(job) && !tasks.isEmpty()) {
            TaskState preemptor = tasks.poll();
            preempt(session, picker, statement, queue, preemptor, candidate -> candidate.job() != job
                    && candidate.job().queue().equals(job.queue()) && mayEvict(preemptor, candidate));
        }
        if (session.plugins().isJobPipelined(job)) {
            statement.commit();
        } else {
            statement.discard();
        }
    }

    private static void preemptWithinJob(Session session, NodePicker picker, Queue queue, JobState job) {
        PriorityQueue<TaskState> tasks = pendingTasks(session, job);
        while (!tasks.isEmpty()) {
            TaskState preemptor = tasks.poll();
            Statement statement = session.newStatement();
            boolean assigned = preempt(session, picker, statement, queue, preemptor,
                    candidate -> candidate.job() == job && mayEvict(preemptor, candidate));
            if (!assigned) {
                statement.discard();
                return;
            }
            statement.commit();
        }
    }

    /** A job's pending tasks that are not gated, in task order: the tasks that may evict others. */
    static PriorityQueue<TaskState> pendingTasks(Session session, JobState job) {
        PriorityQueue<TaskState> tasks = new PriorityQueue<>(session.taskOrder());
        for (TaskState task : job.tasksWithStatus(TaskStatus.PENDING)) {
            if (!task.task().gated()) {
                tasks.add(task);
            }
        }
        return tasks;
    }

    /** The rules every preemption applies, whichever jobs it is between. */
    private static boolean mayEvict(TaskState preemptor, TaskState candidate) {
        return candidate.status().isPreemptable()
                && candidate.task().preemptable()
                && (!preemptor.bestEffort() || candidate.bestEffort());
    }

    /** Tries to make room for one task on some node; on success the task is pipelined there. */
    private static boolean preempt(Session session, NodePicker picker, Statement statement, Queue queue,
            TaskState preemptor, Predicate<TaskState> candidates) {
        if (preemptor.task().preemptionNever()) {
            log.debug("task={} has preemptionPolicy Never and preempts nothing", preemptor.id());
            return false;
        }
        if (session.plugins().prefilter(preemptor).isPresent()) {
            return false;
        }
        List<NodeState> nodes = picker.filterForEviction(preemptor, session.nodes()).feasible();
        for (NodeState node : picker.sortedByScore(preemptor, nodes)) {
            List<TaskState> onNode = new ArrayList<>();
            for (TaskState task : node.tasks()) {
                if (candidates.test(task)) {
                    onNode.add(task);
                }
            }
            List<TaskState> victims = session.plugins().preemptable(preemptor, onNode);
            if (!Victims.couldMakeRoom(preemptor, node, victims)) {
                continue;
            }
            Statement nodeStatement = session.newStatement();
            PriorityQueue<TaskState> inOrder = Victims.inEvictionOrder(session, preemptor, victims);
            boolean fits = fits(session, queue, preemptor, node);
            while (!fits && !inOrder.isEmpty()) {
                TaskState victim = inOrder.poll();
                nodeStatement.evict(victim, NAME, "preempted for " + preemptor.id() + " on " + node.name());
                fits = fits(session, queue, preemptor, node);
            }
            if (fits) {
                nodeStatement.pipeline(preemptor, node.name());
                statement.merge(nodeStatement);
                log.debug("task={} pipelined on node={} after preemption", preemptor.id(), node.name());
                return true;
            }
            nodeStatement.discard();
        }
        return false;
    }

    /** The queue may take the task, it fits the node's future idle (pod slot included), and the filters pass. */
    private static boolean fits(Session session, Queue queue, TaskState preemptor, NodeState node) {
        return session.plugins().isAllocatable(queue, preemptor)
                && Victims.fits(preemptor, node.futureIdle(), node.futureIdlePods())
                && session.plugins().filter(preemptor, node).isEmpty();
    }

    /** Builds the action from its arguments; the topology-aware mode is not implemented. */
    public static final class Factory implements ActionFactory<PreemptArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<PreemptArgs> argsType() {
            return PreemptArgs.class;
        }

        @Override
        public PreemptArgs defaultArgs() {
            return PreemptArgs.DEFAULTS;
        }

        @Override
        public Action create(PreemptArgs args) {
            requireNonNull(args, "args is null");
            if (args.enableTopologyAwarePreemption()) {
                log.warn("preempt: enableTopologyAwarePreemption is not implemented; preempting in normal mode");
            }
            return new PreemptAction();
        }
    }
}
