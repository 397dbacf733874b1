package dev.muster.engine.plugins.tasktopology;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.AllocationListener;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NodeScorer;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskOrder;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.TaskStatus;
import dev.muster.engine.plugins.tasktopology.JobBuckets.BucketView;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Volcano's {@code task-topology}: roles kept together or apart by node, from the PodGroup annotations
 * of {@link TaskTopology}. At session open, each job with pending tasks and a topology gets its
 * {@link JobBuckets}.
 *
 * <ul>
 *   <li><b>Task order:</b> a task in a bucket before one in none (across jobs too); within a job, a
 *       bigger bucket (more pending tasks) first, then an older one; within a bucket, by
 *       {@code task-order}, then by the strength of the role's rule (self-anti-affinity, affinity,
 *       self-affinity, anti-affinity).
 *   <li><b>Node score:</b> {@link JobBuckets#score} times {@code task-topology.weight} times 100 over
 *       the job's largest bucket, so the tasks of a bucket gather on the nodes its first tasks took.
 * </ul>
 *
 * Where Muster differs from Volcano, and why: an annotation naming an unknown role is a warning on the
 * PodGroup (Volcano logs it at level 4), roles are checked against {@code volcano.sh/task-spec} (Volcano
 * reads them from pod names), tasks that must be left out of a bucket are taken in the order they joined
 * (Volcano: map order, which is random), the roles already on a node count for anti-affinity from the
 * session's start (Volcano counts only the session's own placements) and an undone placement is undone
 * here too (Volcano's plugin listens to allocations only).
 */
public final class TaskTopologyPlugin implements Plugin, TaskOrder, NodeScorer, AllocationListener {
    public static final String NAME = "task-topology";

    private static final double MAX_NODE_SCORE = 100;

    private final int weight;
    private final Map<JobId, JobBuckets> jobs = new HashMap<>();

    TaskTopologyPlugin(TaskTopologyArgs args, Session session) {
        requireNonNull(args, "args is null");
        requireNonNull(session, "session is null");
        this.weight = args.weight();
        for (JobState job : session.jobs()) {
            if (job.count(TaskStatus.PENDING) == 0) {
                continue;
            }
            SortedSet<String> roles = new TreeSet<>();
            job.tasks().forEach(task -> roles.add(task.task().role()));
            roles.remove("");
            Optional<TaskTopology> topology;
            try {
                topology = TaskTopology.read(job.job().annotations(), roles);
            } catch (IllegalArgumentException e) {
                job.recordWarning("PodGroup " + job.id() + ": " + e.getMessage() + "; its task topology is ignored");
                continue;
            }
            topology.ifPresent(value -> jobs.put(job.id(), new JobBuckets(value, job.tasks())));
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int compareTasks(TaskState left, TaskState right) {
        JobBuckets leftJob = jobs.get(left.job().id());
        JobBuckets rightJob = jobs.get(right.job().id());
        if (leftJob == null || rightJob == null) {
            return 0;
        }
        Optional<BucketView> leftBucket = leftJob.bucketOf(left);
        Optional<BucketView> rightBucket = rightJob.bucketOf(right);
        if (leftBucket.isPresent() != rightBucket.isPresent()) {
            return leftBucket.isPresent() ? -1 : 1;
        }
        if (!left.job().id().equals(right.job().id()) || leftBucket.isEmpty()) {
            return 0;
        }
        BucketView leftView = leftBucket.get();
        BucketView rightView = rightBucket.get();
        if (leftView.pendingTasks() != rightView.pendingTasks()) {
            return Integer.compare(rightView.pendingTasks(), leftView.pendingTasks());
        }
        if (leftView.index() == rightView.index()) {
            return leftJob.compareWithinBucket(left, right);
        }
        return Integer.compare(leftView.index(), rightView.index());
    }

    @Override
    public Map<NodeName, Double> score(TaskState task, List<NodeState> nodes) {
        JobBuckets job = jobs.get(task.job().id());
        if (job == null || weight == 0) {
            return Map.of();
        }
        double scale = job.maxBucketSize() == 0 ? weight : weight * MAX_NODE_SCORE / job.maxBucketSize();
        Map<NodeName, Double> scores = new LinkedHashMap<>();
        for (NodeState node : nodes) {
            scores.put(node.name(), job.score(task, node) * scale);
        }
        return scores;
    }

    @Override
    public void allocated(TaskState task) {
        JobBuckets job = jobs.get(task.job().id());
        if (job != null && task.node().isPresent()) {
            job.placed(task);
        }
    }

    @Override
    public void deallocated(TaskState task) {
        JobBuckets job = jobs.get(task.job().id());
        if (job != null) {
            job.unplaced(task, task.status() == TaskStatus.PENDING);
        }
    }

    /** Builds the plugin from its weight. */
    public static final class Factory implements PluginFactory<TaskTopologyArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<TaskTopologyArgs> argsType() {
            return TaskTopologyArgs.class;
        }

        @Override
        public TaskTopologyArgs defaultArgs() {
            return TaskTopologyArgs.DEFAULTS;
        }

        @Override
        public Plugin create(TaskTopologyArgs args, Session session) {
            return new TaskTopologyPlugin(args, session);
        }
    }
}
