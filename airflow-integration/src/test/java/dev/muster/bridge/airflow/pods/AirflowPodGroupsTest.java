package dev.muster.bridge.airflow.pods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.bridge.airflow.hints.PriorityWeight;
import dev.muster.bridge.airflow.hints.TaskHint;
import dev.muster.engine.model.JobOrigin;
import dev.muster.engine.model.OriginAnnotations;
import dev.muster.engine.plugins.dag.DagAnnotations;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class AirflowPodGroupsTest {
    private static final String RUN_ID = "manual__2026-12-01T22:56:58.266131+00:00";
    private static final String RUN_LABEL = SafeLabelValue.of(RUN_ID);

    private static Map<String, String> labels(String task, int mapIndex) {
        Map<String, String> labels = new HashMap<>(Map.of("dag_id", "muster_diamond", "task_id", task, "run_id", RUN_LABEL,
                "try_number", "1", "kubernetes_pod_operator", "True"));
        if (mapIndex >= 0) {
            labels.put("map_index", String.valueOf(mapIndex));
        }
        return labels;
    }

    private static TaskHint hint(String task, long seconds, boolean mapped, int mapCount) {
        return new TaskHint("muster_diamond/" + RUN_ID, task, Duration.ofMillis(seconds),
                new PriorityWeight("4", "downstream", OptionalLong.of(5), List.of()), Optional.of("batch"), mapped, mapCount,
                List.of());
    }

    @Test
    void mappedTaskAskingForAGangIsOneGroupOverItsMapIndexes() {
        List<AirflowPodGroups.Plan> plans = List.of(0, 1, 2).stream()
                .map(index -> AirflowPodGroups.plan("default", AirflowPodIdentity.fromLabels("train-" + index, labels("train", index))
                        .orElseThrow(), Map.of(AirflowPodGroups.GANG, "true"), RUN_ID, hint("train", 9_000, true, 3)))
                .toList();

        assertThat(plans).extracting(AirflowPodGroups.Plan::name).containsOnly(plans.get(0).name());
        assertThat(plans.get(0).minMember()).isEqualTo(3);
        assertThat(plans.get(0).queue()).contains("batch");
        assertThat(plans.get(0).annotations()).containsEntry(DagAnnotations.REMAINING_PATH, "9")
                .containsEntry(DagAnnotations.NODE, "train")
                .containsEntry(DagAnnotations.DAG, "default/muster_diamond/" + RUN_LABEL)
                .containsEntry(AirflowPodGroups.AIRFLOW_RUN, RUN_ID)
                .containsEntry(AirflowPodGroups.AIRFLOW_TASK, "train")
                .containsEntry(DagAnnotations.PRIORITY_WEIGHT, "5")
                .containsEntry(AirflowPodGroups.AIRFLOW_PRIORITY_WEIGHT, "4")
                .containsEntry(AirflowPodGroups.AIRFLOW_WEIGHT_RULE, "downstream")
                .doesNotContainKey(DagAnnotations.WAITING_ON);
        assertThat(JobOrigin.of(plans.get(0).annotations()).map(JobOrigin::describe))
                .contains("Airflow DAG muster_diamond, run " + RUN_ID + ", task train[0-2]");
    }

    @Test
    void withoutTheGangAnnotationEachMapIndexIsAGroupOfOne() {
        AirflowPodGroups.Plan first = AirflowPodGroups.plan("default", AirflowPodIdentity.fromLabels("train-0", labels("train", 0))
                .orElseThrow(), Map.of(), RUN_ID, hint("train", 9_000, true, 3));
        AirflowPodGroups.Plan second = AirflowPodGroups.plan("default", AirflowPodIdentity.fromLabels("train-1", labels("train", 1))
                .orElseThrow(), Map.of(), RUN_ID, hint("train", 9_000, true, 3));

        assertThat(first.name()).isNotEqualTo(second.name()).startsWith("airflow-train-");
        assertThat(first.minMember()).isEqualTo(1);
        assertThat(first.annotations()).containsEntry(AirflowPodGroups.AIRFLOW_TASK, "train[0]");
        assertThat(JobOrigin.of(second.annotations()).map(JobOrigin::describe))
                .contains("Airflow DAG muster_diamond, run " + RUN_ID + ", task train[1]");
    }

    @Test
    void aPlainGroupNamesTheDagAndTaskButNotTheRunWhoseLabelIsNotItsId() {
        AirflowPodIdentity pod = AirflowPodIdentity.fromLabels("train-1", labels("train", 1)).orElseThrow();

        AirflowPodGroups.Plan alone = AirflowPodGroups.plain("default", "airflow-train-1", pod, true);
        AirflowPodGroups.Plan shared = AirflowPodGroups.plain("default", "airflow-train", pod, false);

        assertThat(alone.minMember()).isEqualTo(1);
        assertThat(alone.annotations()).doesNotContainKeys(DagAnnotations.DAG, OriginAnnotations.RUN);
        assertThat(JobOrigin.of(alone.annotations()).map(JobOrigin::describe)).contains("Airflow DAG muster_diamond, task train[1]");
        assertThat(JobOrigin.of(shared.annotations()).map(JobOrigin::describe)).contains("Airflow DAG muster_diamond, task train");
    }

    @Test
    void remainingPathIsRoundedUpToWholeSeconds() {
        AirflowPodGroups.Plan plan = AirflowPodGroups.plan("default", AirflowPodIdentity.fromLabels("extract", labels("extract", -1))
                .orElseThrow(), Map.of(), RUN_ID, hint("extract", 400, false, 1));

        assertThat(plan.annotations()).containsEntry(DagAnnotations.REMAINING_PATH, "1")
                .doesNotContainKey(OriginAnnotations.STEP_INDEXES);
        assertThat(JobOrigin.of(plan.annotations()).map(JobOrigin::describe))
                .contains("Airflow DAG muster_diamond, run " + RUN_ID + ", task extract");
    }

    @Test
    void podsAirflowDidNotLaunchHaveNoIdentityAndBadNumbersNameThePod() {
        assertThat(AirflowPodIdentity.fromLabels("web", Map.of("app", "web"))).isEmpty();
        Map<String, String> bad = labels("extract", -1);
        bad.put("try_number", "first");

        assertThatThrownBy(() -> AirflowPodIdentity.fromLabels("extract-pod", bad))
                .hasMessage("pod extract-pod: label try_number: 'first' is not a number");
    }
}
