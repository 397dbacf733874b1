package dev.muster.bridge.airflow.pods;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.bridge.airflow.hints.TaskHint;
import dev.muster.engine.model.OriginAnnotations;
import dev.muster.engine.plugins.dag.DagAnnotations;
import java.util.Map;
import java.util.Optional;

/**
 * The PodGroup the bridge wants for an Airflow task pod, from the pod's identity and its task's hint:
 * one pod, or for a mapped task whose pods carry {@value #GANG}{@code : "true"} all its map indexes;
 * the queue its pool maps to; the {@code dag} plugin's annotations (with the task's effective priority
 * weight, when it has one); and, for explanations, the Airflow DAG, run and task it runs and the task's
 * own {@code priority_weight} and {@code weight_rule} as the API gave them, and the same DAG, run and task
 * (with the map indexes of a mapped task) as the {@link OriginAnnotations} the scheduler's reasons name.
 */
public final class AirflowPodGroups {
    public static final String GANG = "muster.dev/gang";
    public static final String AIRFLOW_DAG = "muster.dev/airflow-dag-id";
    public static final String AIRFLOW_RUN = "muster.dev/airflow-run-id";
    public static final String AIRFLOW_TASK = "muster.dev/airflow-task-id";
    public static final String AIRFLOW_PRIORITY_WEIGHT = "muster.dev/airflow-priority-weight";
    public static final String AIRFLOW_WEIGHT_RULE = "muster.dev/airflow-weight-rule";
    /** Airflow's words for workflow, run and step, for {@link OriginAnnotations#TERMS}. */
    public static final String ORIGIN_TERMS = "DAG,run,task";

    /** A PodGroup to create or correct. */
    public record Plan(String namespace, String name, int minMember, Optional<String> queue, Map<String, String> annotations) {
        public Plan {
            requireNonNull(namespace, "namespace is null");
            requireNonNull(name, "name is null");
            requireNonNull(queue, "queue is null");
            annotations = ImmutableMap.copyOf(annotations);
        }
    }

    private AirflowPodGroups() {}

    /**
     * The group of a pod without hints (the API is down, or does not know the DAG or run): itself
     * alone, so it is scheduled as a plain pod would be.
     */
    public static Plan plain(String namespace, String name) {
        return new Plan(namespace, name, 1, Optional.empty(), Map.of());
    }

    /**
     * The plain group of a pod whose labels say which task it runs: itself alone, with the origin
     * annotations of its DAG and task, so that its reasons still name them. Not the run: the pod's label
     * is a safe label value, not always the run id.
     *
     * @param alone whether the group is this pod's only (so its map index is the group's); the pods of a
     *     mapped task asking for a gang share one group name
     */
    public static Plan plain(String namespace, String name, AirflowPodIdentity pod, boolean alone) {
        ImmutableMap.Builder<String, String> annotations = ImmutableMap.builder();
        putOrigin(annotations, pod, Optional.empty(), pod.mapped() && alone ? Optional.of(String.valueOf(pod.mapIndex())) : Optional.empty());
        return new Plan(namespace, name, 1, Optional.empty(), annotations.buildOrThrow());
    }

    /**
     * @param runId the run's own id, as the API reports it (the pod carries only its label)
     */
    public static Plan plan(String namespace, AirflowPodIdentity pod, Map<String, String> podAnnotations, String runId, TaskHint hint) {
        boolean gang = "true".equals(podAnnotations.get(GANG)) && pod.mapped() && hint.mapped();
        ImmutableMap.Builder<String, String> annotations = ImmutableMap.<String, String>builder()
                .put(DagAnnotations.DAG, namespace + "/" + pod.dagId() + "/" + pod.runLabel())
                .put(DagAnnotations.NODE, pod.taskId())
                // whole seconds, rounded up: a task of 0.4 s still has a path
                .put(DagAnnotations.REMAINING_PATH, String.valueOf((hint.remainingPath().toMillis() + 999) / 1000))
                .put(AIRFLOW_DAG, pod.dagId())
                .put(AIRFLOW_RUN, runId)
                .put(AIRFLOW_TASK, pod.mapped() && !gang ? pod.taskId() + "[" + pod.mapIndex() + "]" : pod.taskId())
                .put(AIRFLOW_PRIORITY_WEIGHT, hint.priorityWeight().ownWeight())
                .put(AIRFLOW_WEIGHT_RULE, hint.priorityWeight().weightRule());
        // Airflow numbers a mapped task's instances from 0
        Optional<String> indexes = gang ? Optional.of(hint.mapCount() == 1 ? "0" : "0-" + (hint.mapCount() - 1))
                : pod.mapped() ? Optional.of(String.valueOf(pod.mapIndex())) : Optional.empty();
        putOrigin(annotations, pod, Optional.of(runId), indexes);
        hint.priorityWeight().effective().ifPresent(weight -> annotations.put(DagAnnotations.PRIORITY_WEIGHT, String.valueOf(weight)));
        // no dag-waiting-on: Airflow launches a task's pod only once its trigger rule lets it run, and a
        // view of the run a poll old must never hold back a pod Airflow already started
        return new Plan(namespace, AirflowGroupName.of(pod, gang), gang ? hint.mapCount() : 1, hint.queue(), annotations.buildOrThrow());
    }

    /** The {@link OriginAnnotations} of the pod's DAG and task, with the run and map indexes when known. */
    private static void putOrigin(ImmutableMap.Builder<String, String> annotations, AirflowPodIdentity pod, Optional<String> runId,
            Optional<String> stepIndexes) {
        annotations.put(OriginAnnotations.SYSTEM, "Airflow")
                .put(OriginAnnotations.WORKFLOW, pod.dagId())
                .put(OriginAnnotations.STEP, pod.taskId())
                .put(OriginAnnotations.TERMS, ORIGIN_TERMS);
        runId.ifPresent(id -> annotations.put(OriginAnnotations.RUN, id));
        stepIndexes.ifPresent(indexes -> annotations.put(OriginAnnotations.STEP_INDEXES, indexes));
    }
}
