package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real Airflow 3.3.2 against {@code muster up --peer airflow}, which installs and starts it with the
 * Airflow bridge reading it: a DAG of KubernetesPodOperator tasks (a diamond, then a mapped fan-out of
 * three annotated as one gang) runs to success on the embedded server and on a real kube-apiserver and etcd,
 * every pod scheduled by Muster (the pod_mutation_hook named it), each PodGroup carrying the DAG's remaining critical path read
 * through Airflow's REST API, and the fan-out one PodGroup of three bound only once all three existed.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class AirflowOnMusterUpTest {
    private static final Duration START = Duration.ofMinutes(8);
    private static final Duration RUN = Duration.ofMinutes(5);
    private static final String DAG = "muster_up_diamond";

    @TempDir
    Path directory;

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(START);

    @ParameterizedTest(name = "--apiserver {0}")
    @ValueSource(strings = {"embedded", "real"})
    void aDiamondAndAMappedGangRunToSuccessWithTheDagsHintsOnTheirPodGroups(String apiServer) throws Exception {
        // given: muster up with Airflow, on its embedded API server or a real kube-apiserver and etcd (whose pods/log
        // KubernetesPodOperator reads from the simulated kubelet's API), and the DAG in Airflow's DAG folder
        KubernetesClient client = up.start(directory, "--apiserver", apiServer, "--nodes", "2:cpu=4,memory=16Gi", "--peer", "airflow");
        AirflowUpRest airflow = AirflowUpRest.of(up.kubeconfig());
        airflow.addDagFile(DAG + ".py");
        await("Airflow answers and has parsed " + DAG).atMost(START).pollInterval(Duration.ofSeconds(5)).ignoreExceptions()
                .failFast("muster up exited", () -> !up.isRunning())
                .until(() -> airflow.knows(DAG));

        // when
        String runId = airflow.trigger(DAG);

        // then: the run succeeds
        // one call each 5 s: Airflow's one API server worker also serves its task workers' execution API
        AtomicReference<String> state = new AtomicReference<>("unknown");
        await("the run " + runId + " succeeds").atMost(RUN).pollInterval(Duration.ofSeconds(5)).ignoreExceptions()
                .failFast("the run failed", () -> "failed".equals(state.get()))
                .until(() -> {
                    state.set(airflow.runState(DAG, runId));
                    return "success".equals(state.get());
                });
        List<Pod> pods = client.pods().inNamespace("default").withLabel("dag_id", DAG).list().getItems();
        assertThat(pods).hasSize(7).allSatisfy(pod -> {
            assertThat(pod.getSpec().getSchedulerName()).isEqualTo("muster");
            assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
        });
        Map<String, GenericKubernetesResource> groups = client.genericKubernetesResources(VolcanoObjects.POD_GROUPS).inNamespace("default")
                .list().getItems().stream().collect(Collectors.toMap(group -> group.getMetadata().getName(), Function.identity()));
        // each task's PodGroup has its remaining critical path, the first run's estimate of 60 s a task, finished ones 0
        Map<String, String> remaining = pods.stream().collect(Collectors.toMap(AirflowOnMusterUpTest::task,
                pod -> annotations(groups.get(group(pod))).getOrDefault("muster.dev/dag-remaining-path", "none"), (one, other) -> one));
        assertThat(remaining).containsExactlyInAnyOrderEntriesOf(Map.of("extract", "240", "clean", "180", "features", "180",
                "train", "120", "publish", "60"));
        assertThat(annotations(groups.get(group(task(pods, "extract").get(0)))))
                .containsEntry("muster.dev/airflow-dag-id", DAG)
                .containsEntry("muster.dev/airflow-run-id", runId)
                .containsEntry("muster.dev/airflow-task-id", "extract")
                .containsEntry("muster.dev/dag-node", "extract");
        // the fan-out: one PodGroup of three, and none of its pods bound before the last of them was created
        List<Pod> shards = task(pods, "train");
        assertThat(shards).hasSize(3).extracting(AirflowOnMusterUpTest::group).containsOnly(group(shards.get(0)));
        assertThat(groups.get(group(shards.get(0))).<Object>get("spec", "minMember")).isEqualTo(3);
        Instant lastCreated = shards.stream().map(pod -> Instant.parse(pod.getMetadata().getCreationTimestamp()))
                .max(Instant::compareTo).orElseThrow();
        assertThat(shards).allSatisfy(pod -> assertThat(scheduled(pod)).isAfterOrEqualTo(lastCreated));
        // each PodGroup's priority weight is the one Airflow gave the task's instances (weight_rule downstream)
        Map<String, String> airflowWeights = airflow.priorityWeights(DAG, runId);
        Map<String, String> weights = pods.stream().collect(Collectors.toMap(AirflowOnMusterUpTest::task,
                pod -> annotations(groups.get(group(pod))).getOrDefault("muster.dev/dag-priority-weight", "none"), (one, other) -> one));
        assertThat(weights).containsExactlyInAnyOrderEntriesOf(airflowWeights);
        // and the bridge's event names it in Airflow's terms (the scheduler's own events say how it was placed)
        assertThat(client.v1().events().inNamespace("default").list().getItems())
                .filteredOn(event -> group(shards.get(0)).equals(event.getInvolvedObject().getName()))
                .filteredOn(event -> "AirflowTask".equals(event.getReason()))
                .extracting(Event::getMessage)
                .containsExactly("Airflow DAG " + DAG + ", run " + runId + ", task train (one gang of its 3 map indexes):"
                        + " remaining critical path 120 s, priority weight " + airflowWeights.get("train") + " (weight_rule downstream, own 4)");
    }

    private static List<Pod> task(List<Pod> pods, String task) {
        return pods.stream().filter(pod -> task.equals(task(pod))).toList();
    }

    private static String task(Pod pod) {
        return pod.getMetadata().getLabels().get("task_id");
    }

    private static String group(Pod pod) {
        return pod.getMetadata().getAnnotations().get(SchedulingApi.GROUP_NAME_ANNOTATION);
    }

    private static Map<String, String> annotations(GenericKubernetesResource group) {
        return group == null || group.getMetadata().getAnnotations() == null ? Map.of() : group.getMetadata().getAnnotations();
    }

    private static Instant scheduled(Pod pod) {
        return pod.getStatus().getConditions().stream().filter(condition -> "PodScheduled".equals(condition.getType()))
                .map(PodCondition::getLastTransitionTime).map(Instant::parse).findFirst()
                .orElseGet(() -> Instant.parse(pod.getStatus().getStartTime()));
    }
}
