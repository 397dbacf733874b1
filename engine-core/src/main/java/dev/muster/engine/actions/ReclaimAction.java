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
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes resources back from other queues for starving jobs (Volcano's reclaim).
 *
 * <p>Queues with admitted, valid jobs are visited in queue order; an overused queue is skipped. Each
 * starving job of the queue, in job order, gets one statement, and its pending tasks in task order
 * reclaim while the job starves. A task is skipped when it has {@code preemptionPolicy: Never}, when
 * its queue may not reclaim for it ({@code Preemptive}) or when a plugin's prefilter rejects it.
 *
 * <p>For one task, the nodes where evictions could make room are tried in name order, unscored. The
 * reclaimees on a node are the Running, {@code preemptable} tasks of <em>other</em> queues that are
 * {@code reclaimable}; the plugins choose victims among them. If all of them would not free enough, the
 * node is skipped; otherwise victims are evicted in {@link dev.muster.engine.framework.VictimOrder}
 * while the task's request exceeds the node's future idle plus what was evicted, and the task is
 * pipelined there. A node that does not work out gives its victims back. The job's statement is
 * committed when the job is pipelined, discarded otherwise.
 *
 * <p>Unlike preempt, reclaim neither asks whether the queue may take the task now ({@code Allocatable})
 * nor runs the plugins' filters again after evicting: the reclaimer is allocated in a later session,
 * once its victims are gone.
 */
public final class ReclaimAction implements Action {
    public static final String NAME = "reclaim";

    private static final Logger log = LoggerFactory.getLogger(ReclaimAction.class);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Session session) {
        PriorityQueue<Queue> queues = new PriorityQueue<>(session.queueOrder());
        Set<QueueName> queued = new HashSet<>();
        Map<QueueName, PriorityQueue<JobState>> reclaimers = new HashMap<>();
        Map<JobState, PriorityQueue<TaskState>> reclaimerTasks = new HashMap<>();
        for (JobState job : session.jobs()) {
            Optional<Queue> queue = session.queue(job.queue());
            if (job.isPending() || session.jobInvalidReason(job).isPresent() || queue.isEmpty()) {
                continue;
            }
            if (queued.add(job.queue())) {
                queues.add(queue.get());
            }
            if (session.plugins().isJobStarving(job)) {
                reclaimers.computeIfAbsent(job.queue(), name -> new PriorityQueue<>(session.jobOrder())).add(job);
                reclaimerTasks.put(job, PreemptAction.pendingTasks(session, job));
            }
        }

        NodePicker picker = new NodePicker(session);
        while (!queues.isEmpty()) {
            Queue queue = queues.poll();
            if (session.plugins().isOverused(queue)) {
                log.debug("queue={} is overused and reclaims nothing", queue.name());
                continue;
            }
            // Volcano pushes the queue back while it has jobs, but then drains them at once, so every
            // starving job of the queue is served in this one turn
            PriorityQueue<JobState> jobs = reclaimers.getOrDefault(queue.name(), new PriorityQueue<>());
            while (!jobs.isEmpty()) {
                JobState job = jobs.poll();
                reclaimForJob(session, picker, queue, job, reclaimerTasks.get(job));
            }
        }
    }

    private static void reclaimForJob(Session session, NodePicker picker, Queue queue, JobState job, PriorityQueue<TaskState> tasks) {
        Statement statement = session.newStatement();
        while (session.plugins().isJobStarving(job) && !tasks.isEmpty()) {
            TaskState task = tasks.poll();
            if (task.task().preemptionNever()) {
                log.debug("task={} has preemptionPolicy Never and reclaims nothing", task.id());
                continue;
            }
            if (!session.plugins().isPreemptive(queue, List.of(task))) {
                log.debug("queue={} may not reclaim for task={}", queue.name(), task.id());
                continue;
            }
            if (session.plugins().prefilter(task).isPresent()) {
                continue;
            }
            reclaimForTask(session, picker, statement, job, task);
        }
        if (session.plugins().isJobPipelined(job)) {
            statement.commit();
        } else {
            statement.discard();
        }
    }

    private static void reclaimForTask(Session session, NodePicker picker, Statement statement, JobState job, TaskState task) {
        for (NodeState node : picker.filterForEviction(task, session.nodes()).feasible()) {
            List<TaskState> reclaimees = new ArrayList<>();
            for (TaskState candidate : node.tasks()) {
                if (isReclaimee(session, job, candidate)) {
                    reclaimees.add(candidate);
                }
            }
            if (reclaimees.isEmpty()) {
                continue;
            }
            List<TaskState> victims = session.plugins().reclaimable(task, reclaimees);
            if (!Victims.couldMakeRoom(task, node, victims)) {
                continue;
            }
            Statement nodeStatement = session.newStatement();
            PriorityQueue<TaskState> inOrder = Victims.inEvictionOrder(session, task, victims);
            Resources available = node.futureIdle();
            int availablePods = node.futureIdlePods();
            while (!Victims.fits(task, available, availablePods) && !inOrder.isEmpty()) {
                TaskState victim = inOrder.poll();
                nodeStatement.evict(victim, NAME, "reclaimed for " + task.id() + " on " + node.name());
                available = available.add(victim.request());
                availablePods++;
            }
            if (!Victims.fits(task, available, availablePods)) {
                nodeStatement.discard();
                continue;
            }
            nodeStatement.pipeline(task, node.name());
            statement.merge(nodeStatement);
            log.debug("task={} pipelined on node={} after reclaiming", task.id(), node.name());
            return;
        }
    }

    /** A Running, preemptable task of another queue that lets others reclaim from it. */
    private static boolean isReclaimee(Session session, JobState reclaimer, TaskState candidate) {
        if (candidate.status() != TaskStatus.RUNNING || !candidate.task().preemptable()
                || candidate.job().queue().equals(reclaimer.queue())) {
            return false;
        }
        return session.queue(candidate.job().queue()).map(Queue::reclaimable).orElse(false);
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
            return new ReclaimAction();
        }
    }
}
