package dev.muster.bridge.airflow.pods;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.common.hash.Hashing;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The PodGroup name of an Airflow task pod: {@code airflow-<task>-<16 hex digits of a SHA-256>} over
 * the DAG, task, run label and try, and the map index unless the pod is part of a mapped task's gang.
 * The same function as {@code group_name} in {@code src/main/python/airflow_local_settings.py}, which
 * puts the name on the pod before Airflow creates it; {@code PodMutationHookTest} keeps them equal.
 */
public final class AirflowGroupName {
    private static final int TASK_PART = 30;
    private static final int HASH_HEX = 16;

    private AirflowGroupName() {}

    public static String of(AirflowPodIdentity pod, boolean gang) {
        List<String> parts = new ArrayList<>(List.of(pod.dagId(), pod.taskId(), pod.runLabel(), String.valueOf(pod.tryNumber())));
        if (!(gang && pod.mapped())) {
            parts.add(String.valueOf(pod.mapIndex()));
        }
        String digest = Hashing.sha256().hashString(String.join("\n", parts), UTF_8).toString().substring(0, HASH_HEX);
        StringBuilder task = new StringBuilder();
        for (char c : pod.taskId().toLowerCase(Locale.ROOT).toCharArray()) {
            task.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '-');
        }
        String readable = strip(strip(task.toString()).substring(0, Math.min(TASK_PART, strip(task.toString()).length())));
        return "airflow-" + (readable.isEmpty() ? "task" : readable) + "-" + digest;
    }

    private static String strip(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && value.charAt(start) == '-') {
            start++;
        }
        while (end > start && value.charAt(end - 1) == '-') {
            end--;
        }
        return value.substring(start, end);
    }
}
