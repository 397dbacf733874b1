package dev.muster.bridge.airflow.hints;

import static java.lang.String.format;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.bridge.airflow.api.AirflowTask;
import dev.muster.bridge.airflow.api.AirflowTaskInstance;
import dev.muster.graph.CriticalPath;
import dev.muster.graph.GraphBuilder;
import dev.muster.graph.GraphException;
import dev.muster.graph.JobGraph;
import dev.muster.graph.NodeId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Makes the {@link TaskHint}s of one DAG run from the DAG's tasks, earlier runs' task instances and
 * this run's. A task's estimate is the median over earlier runs of its run time (the longest of its map
 * indexes, which run side by side), or {@link HintSettings#defaultTaskDuration()} when no earlier run
 * succeeded; a task this run has finished counts zero. The remaining path is the dependency graph's
 * critical path from the task; its priority weight is Airflow's effective one ({@link PriorityWeights}).
 * Deterministic: the same input gives the same hints.
 */
public final class DagRunPlanner {
    /** Airflow's final task instance states ({@code airflow.utils.state.TaskInstanceState}). */
    static final Set<String> FINISHED = ImmutableSet.of("success", "failed", "skipped", "upstream_failed", "removed");
    private static final Set<String> DONE_FOR_DOWNSTREAM = ImmutableSet.of("success", "skipped");

    private final HintSettings settings;

    public DagRunPlanner(HintSettings settings) {
        this.settings = settings;
    }

    /**
     * @param dag what the hints name as the DAG ({@code <dag_id>/<run_id>}); problems with the tasks'
     *     weights name the DAG only ({@code <dag_id>}, which has no {@code /} in Airflow), as they are the
     *     same in every run
     * @param history earlier runs' task instances, any order; runs that did not succeed count too, for
     *     the instances that did
     * @throws IllegalArgumentException naming the DAG and what is wrong with its graph (a downstream
     *     task it does not list, a cycle)
     */
    public Map<String, TaskHint> plan(String dag, List<AirflowTask> tasks, Collection<List<AirflowTaskInstance>> history,
            List<AirflowTaskInstance> current) {
        JobGraph graph = graph(dag, tasks);
        Map<String, List<AirflowTaskInstance>> now = byTask(current);
        Map<NodeId, Duration> estimates = new HashMap<>();
        for (AirflowTask task : tasks) {
            List<AirflowTaskInstance> instances = now.getOrDefault(task.taskId(), List.of());
            boolean finished = !instances.isEmpty() && instances.stream().allMatch(instance -> FINISHED.contains(instance.state()));
            estimates.put(NodeId.of(task.taskId()), finished ? Duration.ZERO : estimate(task.taskId(), history));
        }
        CriticalPath path = CriticalPath.of(graph, estimates);
        Map<String, PriorityWeight> weights = PriorityWeights.of(dag.contains("/") ? dag.substring(0, dag.indexOf('/')) : dag, tasks, graph);
        ImmutableMap.Builder<String, TaskHint> hints = ImmutableMap.builder();
        for (AirflowTask task : tasks) {
            NodeId node = NodeId.of(task.taskId());
            List<AirflowTaskInstance> instances = now.getOrDefault(task.taskId(), List.of());
            List<String> waitingOn = graph.parents(node).stream()
                    .map(edge -> edge.parent().value())
                    .filter(parent -> {
                        List<AirflowTaskInstance> parentInstances = now.getOrDefault(parent, List.of());
                        return parentInstances.isEmpty()
                                || !parentInstances.stream().allMatch(instance -> DONE_FOR_DOWNSTREAM.contains(instance.state()));
                    })
                    .sorted()
                    .toList();
            int mapCount = task.mapped() ? (int) instances.stream().filter(instance -> instance.mapIndex() >= 0).count() : 1;
            hints.put(task.taskId(), new TaskHint(dag, task.taskId(), path.remaining(node), weights.get(task.taskId()), queue(task),
                    task.mapped(), Math.max(1, mapCount), waitingOn));
        }
        return hints.buildOrThrow();
    }

    private static JobGraph graph(String dag, List<AirflowTask> tasks) {
        GraphBuilder builder = JobGraph.builder();
        tasks.forEach(task -> builder.node(task.taskId()));
        tasks.forEach(task -> task.downstreamTaskIds().forEach(child -> builder.edge(task.taskId(), child)));
        try {
            return builder.build();
        } catch (GraphException e) {
            throw new IllegalArgumentException(format("DAG %s: its tasks' downstream_task_ids do not make a DAG: %s", dag, e.getMessage()), e);
        }
    }

    private Duration estimate(String taskId, Collection<List<AirflowTaskInstance>> history) {
        List<Duration> perRun = new ArrayList<>();
        for (List<AirflowTaskInstance> run : history) {
            run.stream()
                    .filter(instance -> instance.taskId().equals(taskId) && instance.state().equals("success"))
                    .map(AirflowTaskInstance::duration)
                    .flatMap(Optional::stream)
                    .max(Duration::compareTo)
                    .ifPresent(perRun::add);
        }
        if (perRun.isEmpty()) {
            return settings.defaultTaskDuration();
        }
        perRun.sort(Duration::compareTo);
        return perRun.get((perRun.size() - 1) / 2);
    }

    private Optional<String> queue(AirflowTask task) {
        Optional<String> byPool = task.pool().map(pool -> settings.queues().get("pool:" + pool));
        if (byPool.isPresent()) {
            return byPool;
        }
        return task.queue().map(queue -> settings.queues().get("queue:" + queue));
    }

    private static Map<String, List<AirflowTaskInstance>> byTask(List<AirflowTaskInstance> instances) {
        Map<String, List<AirflowTaskInstance>> byTask = new TreeMap<>();
        instances.forEach(instance -> byTask.computeIfAbsent(instance.taskId(), key -> new ArrayList<>()).add(instance));
        return byTask;
    }
}
