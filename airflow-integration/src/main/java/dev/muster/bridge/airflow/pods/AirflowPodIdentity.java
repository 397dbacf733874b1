package dev.muster.bridge.airflow.pods;

import static java.lang.String.format;
import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

/**
 * Which task instance a pod runs, from the labels Airflow puts on the pods it launches
 * ({@code KubernetesPodOperator._get_ti_pod_labels}, and the KubernetesExecutor's worker pods):
 * {@code dag_id}, {@code task_id}, {@code run_id}, {@code try_number} and, for a mapped task,
 * {@code map_index}. The values are {@link SafeLabelValue safe label values}, so the run id is its
 * label, not always the run id itself.
 */
public record AirflowPodIdentity(String dagId, String taskId, String runLabel, int tryNumber, int mapIndex) {
    public static final String DAG_ID = "dag_id";
    public static final String TASK_ID = "task_id";
    public static final String RUN_ID = "run_id";
    public static final String TRY_NUMBER = "try_number";
    public static final String MAP_INDEX = "map_index";
    public static final int NOT_MAPPED = -1;

    public AirflowPodIdentity {
        requireNonNull(dagId, "dagId is null");
        requireNonNull(taskId, "taskId is null");
        requireNonNull(runLabel, "runLabel is null");
    }

    public boolean mapped() {
        return mapIndex != NOT_MAPPED;
    }

    /**
     * The identity, or empty for a pod Airflow did not launch (no {@code dag_id}, {@code task_id} and
     * {@code run_id} labels).
     *
     * @throws IllegalArgumentException naming the pod, the label and its value when a number is not one
     */
    public static Optional<AirflowPodIdentity> fromLabels(String pod, Map<String, String> labels) {
        String dagId = labels.get(DAG_ID);
        String taskId = labels.get(TASK_ID);
        String runId = labels.get(RUN_ID);
        if (dagId == null || taskId == null || runId == null) {
            return Optional.empty();
        }
        return Optional.of(new AirflowPodIdentity(dagId, taskId, runId, number(pod, labels, TRY_NUMBER, 1),
                number(pod, labels, MAP_INDEX, NOT_MAPPED)));
    }

    private static int number(String pod, Map<String, String> labels, String label, int absent) {
        String value = labels.get(label);
        if (value == null) {
            return absent;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(format("pod %s: label %s: '%s' is not a number", pod, label, value), e);
        }
    }
}
