package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.plugins.dag.DagAnnotations;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Airflow 3.3.2 against {@code muster up --peer airflow}, which installs and starts it with the
 * Airflow bridge reading it; one muster up and one Airflow serve both scenarios of a subclass, in turn.
 *
 * <p>First, a DAG of KubernetesPodOperator tasks (a diamond, then a mapped fan-out of three annotated as one
 * gang) runs to success, every pod scheduled by Muster (the pod_mutation_hook named it), each PodGroup
 * carrying the DAG's remaining critical path read through Airflow's REST API, and the fan-out one PodGroup
 * of three bound only once all three existed.
 *
 * <p>Then two DAG runs compete for the one CPU of the node labelled {@code pool=solo} (their tasks select it),
 * held by a blocker until the first task of each run waits with its PodGroup's hints. When the blocker goes,
 * the subclass's configuration decides which is bound first: the run expected to end sooner (one minute left
 * against three; Muster's default) or the task on the longer remaining path (the {@code dag} plugin's
 * {@code across-dags: longest-path}). Airflow's priority weights and the pods' ages favour the long run, so
 * with the default only the runs' remaining time can put the short one first. The other pod follows once the
 * first has run its 5 s, and both runs succeed. The order is read from the API server: which pod has a node
 * while the other has none.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 15, unit = TimeUnit.MINUTES)
abstract class AirflowMusterUpScenarios {
    private static final Duration START = Duration.ofMinutes(8);
    private static final Duration RUN = Duration.ofMinutes(5);
    private static final String DIAMOND = "muster_up_diamond";
    private static final String LONG = "muster_up_long";
    private static final String SHORT = "muster_up_short";

    @RegisterExtension
    final MusterUpFixture up = MusterUpFixture.forClass(START);

    private KubernetesClient client;
    private AirflowUpRest airflow;

    /** {@code muster up}'s options besides nodes and peer: the API server and the configuration. */
    abstract List<String> options(Path directory) throws Exception;

    /** Whether the short run's pod is to be bound first (else the long run's). */
    abstract boolean shortRunFirst();

    @BeforeAll
    void startMusterUpWithAirflow(@TempDir Path directory) throws Exception {
        // two nodes for the diamond, and one of one CPU that only the competing DAGs' tasks (and the blocker) select
        List<String> options = new ArrayList<>(options(directory));
        options.addAll(List.of("--nodes", "2:cpu=4,memory=16Gi", "--nodes", "solo:1:cpu=1,memory=4Gi:pool=solo", "--peer", "airflow"));
        client = up.start(directory, options.toArray(String[]::new));
        airflow = AirflowUpRest.of(up.kubeconfig());
        airflow.addDagFile(DIAMOND + ".py");
        airflow.addDagFile("muster_up_competing.py");
        await("Airflow answers and has parsed the DAGs").atMost(START).pollInterval(Duration.ofSeconds(5)).ignoreExceptions()
                .failFast("muster up exited", () -> !up.isRunning())
                .until(() -> airflow.knows(DIAMOND) && airflow.knows(LONG) && airflow.knows(SHORT));
    }

    @AfterAll
    void stopMusterUp() throws InterruptedException {
        up.close();
    }

    @Test
    @Order(1)
    void aDiamondAndAMappedGangRunToSuccessWithTheDagsHintsOnTheirPodGroups() throws Exception {
        // when
        String runId = airflow.trigger(DIAMOND);

        // then: the run succeeds
        // one call each 5 s: Airflow's one API server worker also serves its task workers' execution API
        AtomicReference<String> state = new AtomicReference<>("unknown");
        await("the run " + runId + " succeeds").atMost(RUN).pollInterval(Duration.ofSeconds(5)).ignoreExceptions()
                .failFast("the run failed", () -> "failed".equals(state.get()))
                .until(() -> {
                    state.set(airflow.runState(DIAMOND, runId));
                    return "success".equals(state.get());
                });
        List<Pod> pods = client.pods().inNamespace("default").withLabel("dag_id", DIAMOND).list().getItems();
        assertThat(pods).hasSize(7).allSatisfy(pod -> {
            assertThat(pod.getSpec().getSchedulerName()).isEqualTo("muster");
            assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
        });
        Map<String, GenericKubernetesResource> groups = client.genericKubernetesResources(VolcanoObjects.POD_GROUPS).inNamespace("default")
                .list().getItems().stream().collect(Collectors.toMap(group -> group.getMetadata().getName(), Function.identity()));
        // each task's PodGroup has its remaining critical path, the first run's estimate of 60 s a task, finished ones 0
        Map<String, String> remaining = pods.stream().collect(Collectors.toMap(AirflowMusterUpScenarios::task,
                pod -> annotations(groups.get(group(pod))).getOrDefault(DagAnnotations.REMAINING_PATH, "none"), (one, other) -> one));
        assertThat(remaining).containsExactlyInAnyOrderEntriesOf(Map.of("extract", "240", "clean", "180", "features", "180",
                "train", "120", "publish", "60"));
        assertThat(annotations(groups.get(group(task(pods, "extract").get(0)))))
                .containsEntry("muster.dev/airflow-dag-id", DIAMOND)
                .containsEntry("muster.dev/airflow-run-id", runId)
                .containsEntry("muster.dev/airflow-task-id", "extract")
                .containsEntry("muster.dev/dag-node", "extract");
        // the fan-out: one PodGroup of three, and none of its pods bound before the last of them was created
        List<Pod> shards = task(pods, "train");
        assertThat(shards).hasSize(3).extracting(AirflowMusterUpScenarios::group).containsOnly(group(shards.get(0)));
        assertThat(groups.get(group(shards.get(0))).<Object>get("spec", "minMember")).isEqualTo(3);
        Instant lastCreated = shards.stream().map(pod -> Instant.parse(pod.getMetadata().getCreationTimestamp()))
                .max(Instant::compareTo).orElseThrow();
        assertThat(shards).allSatisfy(pod -> assertThat(scheduledOrStarted(pod)).isAfterOrEqualTo(lastCreated));
        // each PodGroup's priority weight is the one Airflow gave the task's instances (weight_rule downstream)
        Map<String, String> airflowWeights = airflow.priorityWeights(DIAMOND, runId);
        Map<String, String> weights = pods.stream().collect(Collectors.toMap(AirflowMusterUpScenarios::task,
                pod -> annotations(groups.get(group(pod))).getOrDefault(DagAnnotations.PRIORITY_WEIGHT, "none"), (one, other) -> one));
        assertThat(weights).containsExactlyInAnyOrderEntriesOf(airflowWeights);
        // and the bridge's event names it in Airflow's terms (the scheduler's own events say how it was placed)
        assertThat(client.v1().events().inNamespace("default").list().getItems())
                .filteredOn(event -> group(shards.get(0)).equals(event.getInvolvedObject().getName()))
                .filteredOn(event -> "AirflowTask".equals(event.getReason()))
                .extracting(Event::getMessage)
                .containsExactly("Airflow DAG " + DIAMOND + ", run " + runId + ", task train (one gang of its 3 map indexes):"
                        + " remaining critical path 120 s, priority weight " + airflowWeights.get("train") + " (weight_rule downstream, own 4)");
    }

    @Test
    @Order(2)
    void ofTwoCompetingRunsTheConfiguredOneIsPlacedFirstAndBothSucceed() throws Exception {
        // given: the solo node's one CPU held by a pod that runs until deleted
        Pod blocker = client.pods().inNamespace("default").resource(new PodBuilder()
                .withNewMetadata().withName("blocker").endMetadata()
                .withNewSpec().withSchedulerName("muster").withNodeSelector(Map.of("pool", "solo"))
                .addNewContainer().withName("main").withImage("busybox:1.36")
                .withNewResources().withRequests(Map.of("cpu", new Quantity("1"))).endResources().endContainer().endSpec()
                .build()).create();
        await("the blocker bound").atMost(RUN).until(() -> client.pods().resource(blocker).get().getSpec().getNodeName() != null);

        // when: the long DAG's run first, so that its pod is the older, then the short DAG's
        String longRun = airflow.trigger(LONG);
        Pod longPod = awaitFirstPod(LONG);
        String shortRun = airflow.trigger(SHORT);
        Pod shortPod = awaitFirstPod(SHORT);
        // both wait with their hints: a has 180 s left, s 60 s; Airflow's weights say a (15) before s (1)
        await("both PodGroups' hints").atMost(RUN).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            assertThat(hints(longPod)).containsEntry(DagAnnotations.REMAINING_PATH, "180").containsEntry(DagAnnotations.PRIORITY_WEIGHT, "15");
            assertThat(hints(shortPod)).containsEntry(DagAnnotations.REMAINING_PATH, "60").containsEntry(DagAnnotations.PRIORITY_WEIGHT, "1");
        });
        assertThat(List.of(client.pods().resource(shortPod).get(), client.pods().resource(longPod).get()))
                .allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).as("%s bound before the blocker went", name(pod)).isNull());
        client.pods().resource(blocker).withGracePeriod(0).delete();

        // then: when the first of them is bound, it is the configured one's and the other still waits (5 s on the one CPU)
        Pod first = shortRunFirst() ? shortPod : longPod;
        Pod second = shortRunFirst() ? longPod : shortPod;
        List<Pod> atFirstBinding = await("the first binding").atMost(RUN).pollInterval(Duration.ofMillis(100))
                .until(() -> List.of(client.pods().resource(first).get(), client.pods().resource(second).get()),
                        pods -> pods.stream().anyMatch(pod -> pod.getSpec().getNodeName() != null));
        assertThat(atFirstBinding).extracting(AirflowMusterUpScenarios::name, pod -> pod.getSpec().getNodeName() != null)
                .containsExactly(tuple(name(first), true), tuple(name(second), false));
        // and the other is bound after the first has run its 5 s, as the pods' PodScheduled conditions say too (whole seconds)
        Pod secondBound = await("the second pod bound").atMost(RUN).pollInterval(Duration.ofSeconds(1))
                .until(() -> client.pods().resource(second).get(), pod -> pod.getSpec().getNodeName() != null);
        Instant firstScheduled = scheduled(client.pods().resource(first).get()).orElseThrow();
        assertThat(scheduled(secondBound)).hasValueSatisfying(time -> assertThat(time).isAfterOrEqualTo(firstScheduled.plusSeconds(4)));
        // and both runs go on to succeed, the long one through b and c on the freed CPU
        await("both runs succeeded").atMost(RUN).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            assertThat(airflow.runState(SHORT, shortRun)).isEqualTo("success");
            assertThat(airflow.runState(LONG, longRun)).isEqualTo("success");
        });
    }

    /** The pod of the DAG's first task, once Airflow has made it. */
    private Pod awaitFirstPod(String dag) {
        return await(dag + "'s first pod").atMost(RUN).pollInterval(Duration.ofMillis(500))
                .until(() -> client.pods().inNamespace("default").withLabel("dag_id", dag).list().getItems(), pods -> pods.size() == 1)
                .get(0);
    }

    /** The annotations of the PodGroup the pod names, empty until it exists. */
    private Map<String, String> hints(Pod pod) {
        return annotations(client.genericKubernetesResources(VolcanoObjects.POD_GROUPS).inNamespace("default").withName(group(pod)).get());
    }

    private static List<Pod> task(List<Pod> pods, String task) {
        return pods.stream().filter(pod -> task.equals(task(pod))).toList();
    }

    private static String task(Pod pod) {
        return pod.getMetadata().getLabels().get("task_id");
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getName();
    }

    private static String group(Pod pod) {
        return pod.getMetadata().getAnnotations().get(SchedulingApi.GROUP_NAME_ANNOTATION);
    }

    private static Map<String, String> annotations(GenericKubernetesResource group) {
        return group == null || group.getMetadata().getAnnotations() == null ? Map.of() : group.getMetadata().getAnnotations();
    }

    private static Optional<Instant> scheduled(Pod pod) {
        return pod.getStatus().getConditions().stream().filter(condition -> "PodScheduled".equals(condition.getType()))
                .filter(condition -> "True".equals(condition.getStatus()))
                .map(PodCondition::getLastTransitionTime).map(Instant::parse).findFirst();
    }

    private static Instant scheduledOrStarted(Pod pod) {
        return pod.getStatus().getConditions().stream().filter(condition -> "PodScheduled".equals(condition.getType()))
                .map(PodCondition::getLastTransitionTime).map(Instant::parse).findFirst()
                .orElseGet(() -> Instant.parse(pod.getStatus().getStartTime()));
    }
}
