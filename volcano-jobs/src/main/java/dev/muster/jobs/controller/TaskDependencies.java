package dev.muster.jobs.controller;

import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.graph.Condition;
import dev.muster.graph.Dependency;
import dev.muster.graph.GraphRun;
import dev.muster.graph.JobGraph;
import dev.muster.graph.NodeId;
import dev.muster.graph.NodeState;
import dev.muster.jobs.JobValidator;
import dev.muster.jobs.PodPhase;
import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJob;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Which tasks may have their pods created, from {@code tasks[].dependsOn}. Volcano's meaning, the
 * default: a parent task is ready when its minimum of pods runs with every container ready, or
 * succeeded. With the job annotation {@code muster.dev/depends-on: completed}, a parent is ready
 * only when its minimum of pods succeeded, and a parent that can no longer get there (more pods
 * failed than it may lose) holds its children back for good.
 */
public final class TaskDependencies {
    public static final String RUNNING = "running";
    public static final String COMPLETED = "completed";

    private TaskDependencies() {}

    /** Task name to why it waits, for every task whose dependencies are not met; tasks missing here may start. */
    public static ImmutableSortedMap<String, String> waiting(VolcanoJob job, ObservedJob observed) {
        if (job.spec().tasks().stream().allMatch(task -> task.dependsOn().isEmpty())) {
            return ImmutableSortedMap.of();
        }
        boolean completed = COMPLETED.equals(job.metadata().annotations().get(SchedulingApi.DEPENDS_ON));
        JobGraph graph = JobValidator.dependencyGraph(job.spec(), completed ? Condition.SUCCEEDED : Condition.RUNNING).build();
        GraphRun run = new GraphRun(graph);
        for (TaskSpec task : job.spec().tasks()) {
            List<ObservedPod> pods = observed.podsOf(task.name());
            long succeeded = pods.stream().filter(pod -> pod.phase() == PodPhase.SUCCEEDED).count();
            long ready = succeeded + pods.stream().filter(pod -> pod.phase() == PodPhase.RUNNING && pod.containersReady()).count();
            long failed = pods.stream().filter(pod -> pod.phase() == PodPhase.FAILED).count();
            NodeId node = NodeId.of(task.name());
            if (ready >= task.minMember()) {
                advance(run, node, NodeState.RUNNING);
            }
            if (completed && succeeded >= task.minMember()) {
                advance(run, node, NodeState.SUCCEEDED);
            } else if (completed && failed > task.replicas() - task.minMember()) {
                advance(run, node, NodeState.FAILED);
            }
        }
        ImmutableSortedMap.Builder<String, String> waiting = ImmutableSortedMap.naturalOrder();
        for (TaskSpec task : job.spec().tasks()) {
            NodeId node = NodeId.of(task.name());
            if (run.skipReason(node).isPresent()) {
                waiting.put(task.name(), "will not start: " + run.skipReason(node).get());
            } else if (run.state(node) == NodeState.PENDING && !run.isReady(node)) {
                String parents = run.waitingOn(node).stream().map(Dependency::parent).map(NodeId::toString).collect(Collectors.joining(", "));
                waiting.put(task.name(), "waits for " + parents + " to be " + (completed ? COMPLETED : RUNNING));
            }
        }
        return waiting.buildOrThrow();
    }

    /** Records a state the pods show, unless the run already moved past it (a skipped task whose pods linger). */
    private static void advance(GraphRun run, NodeId node, NodeState state) {
        if (run.state(node).canBecome(state)) {
            run.update(node, state);
        }
    }
}
