package dev.muster.runtime.history;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static dev.muster.engine.testing.ClusterScenario.pod;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskStatus;
import dev.muster.engine.testing.ClusterScenario;
import java.time.Instant;

/** Snapshots of one gang of two 2-cpu pods, {@code ml/NAME}, of queue default, annotated {@code team: vision}. */
final class TestingGangs {
    private TestingGangs() {}

    /** The gang with both pods running, started at the given times. */
    static ClusterSnapshot running(String name, Instant first, Instant second) {
        String job = "ml/" + name;
        return ClusterScenario.builder()
                .node("n1", cpu(8))
                .job(job, "default", 2, cpu(2), 0)
                .annotation(job, "team", "vision")
                .pod(pod(job, name + "-0").request(cpu(2)).runningOn("n1").startedAt(first))
                .pod(pod(job, name + "-1").request(cpu(2)).runningOn("n1").startedAt(second))
                .build();
    }

    /** The snapshot with its one gang's pods in these states, in pod order. */
    static ClusterSnapshot with(ClusterSnapshot cluster, TaskStatus... statuses) {
        JobId id = cluster.jobs().firstKey();
        Job job = cluster.jobs().get(id);
        ImmutableList.Builder<Task> tasks = ImmutableList.builder();
        for (int i = 0; i < statuses.length; i++) {
            Task task = job.tasks().get(i);
            tasks.add(task.withStatus(statuses[i], task.node()));
        }
        return new ClusterSnapshot(cluster.nodes(), ImmutableSortedMap.of(id, job.withTasks(tasks.build())), cluster.queues(),
                cluster.otherTasks(), cluster.priorityClasses(), cluster.hyperNodes());
    }

    /** The snapshot with every pod of its gang succeeded. */
    static ClusterSnapshot succeeded(ClusterSnapshot cluster) {
        return with(cluster, TaskStatus.SUCCEEDED, TaskStatus.SUCCEEDED);
    }
}
