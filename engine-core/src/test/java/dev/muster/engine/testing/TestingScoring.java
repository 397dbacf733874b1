package dev.muster.engine.testing;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.framework.NodeScorer;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Taint;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Helpers for node-scoring tests: nodes with labels and taints, tasks with a changed placement or
 * annotations, and the scores one plugin gives a task over a session's nodes.
 */
public final class TestingScoring {
    private TestingScoring() {}

    public static ClusterNode node(String name, Resources allocatable, Map<String, String> labels, List<Taint> taints) {
        return new ClusterNode(new NodeName(name), allocatable, allocatable, 110, ImmutableMap.copyOf(labels), ImmutableList.copyOf(taints), false, true);
    }

    /** The snapshot with one task replaced by {@code change} applied to it. */
    public static ClusterSnapshot withTask(ClusterSnapshot snapshot, TaskId id, UnaryOperator<Task> change) {
        for (Job job : snapshot.jobs().values()) {
            ImmutableList.Builder<Task> tasks = ImmutableList.builder();
            boolean found = false;
            for (Task task : job.tasks()) {
                if (task.id().equals(id)) {
                    tasks.add(change.apply(task));
                    found = true;
                } else {
                    tasks.add(task);
                }
            }
            if (found) {
                ImmutableMap.Builder<JobId, Job> jobs = ImmutableMap.builder();
                snapshot.jobs().forEach((jobId, other) -> jobs.put(jobId, other == job ? job.withTasks(tasks.build()) : other));
                return new ClusterSnapshot(snapshot.nodes(), ImmutableSortedMap.copyOf(jobs.build()),
                        snapshot.queues(), snapshot.otherTasks(), snapshot.priorityClasses(), snapshot.hyperNodes(), snapshot.history());
            }
        }
        throw new IllegalArgumentException("no task " + id);
    }

    /** A copy of the task with other annotations. */
    public static Task withAnnotations(Task task, Map<String, String> annotations) {
        return new Task(task.id(), task.uid(), task.job(), task.role(), task.priority(), task.priorityClassName(), task.request(),
                task.initRequest(), task.status(), task.node(), task.created(), task.preemptable(), task.preemptionNever(), task.gated(),
                task.placement(), task.labels(), ImmutableMap.copyOf(annotations));
    }

    /** A copy of the task with another placement. */
    public static Task withPlacement(Task task, Placement placement) {
        return new Task(task.id(), task.uid(), task.job(), task.role(), task.priority(), task.priorityClassName(), task.request(),
                task.initRequest(), task.status(), task.node(), task.created(), task.preemptable(), task.preemptionNever(), task.gated(),
                placement, task.labels(), task.annotations());
    }

    /** The scores the configuration's first scoring plugin gives a pending task over every node of the session. */
    public static Map<NodeName, Double> scores(String config, ClusterSnapshot snapshot, TaskId task) {
        Session session = Session.open(snapshot, TestingScheduler.loader().parse("test.conf", config), TestingScheduler.CLOCK);
        List<NodeScorer> scorers = session.plugins().all(NodeScorer.class);
        checkArgument(!scorers.isEmpty(), "the configuration has no scoring plugin");
        TaskState state = session.jobs().stream()
                .flatMap(job -> job.tasks().stream())
                .filter(candidate -> candidate.id().equals(task))
                .findFirst()
                .orElseThrow();
        List<NodeState> nodes = session.nodes();
        return scorers.get(0).score(state, nodes);
    }
}
