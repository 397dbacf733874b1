package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.plugins.dag.DagAnnotations;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two DAG runs of the real Airflow 3.3.2 competing on {@code muster up --peer airflow} with Muster's default
 * configuration, whose {@code dag} plugin reads the hints the Airflow bridge writes: one node with room for
 * one task pod, held by a blocker until the first task of each run waits with its PodGroup's hints read
 * through Airflow's API. When the blocker goes, the pod of the run expected to end sooner (one minute left
 * against three) is bound first, though it is the younger of the two and Airflow's priority weight favours
 * the other (see {@code muster_up_competing.py}); the other run's pod follows once it has run, and both runs
 * succeed. The order is read from the API server: which pod has a node while the other has none.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class AirflowCompetingRunsOnMusterUpTest {
    private static final Duration START = Duration.ofMinutes(8);
    private static final Duration WAIT = Duration.ofMinutes(5);
    private static final String LONG = "muster_up_long";
    private static final String SHORT = "muster_up_short";

    @TempDir
    Path directory;

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(START);

    @Test
    void theReadyTaskOfTheRunExpectedToEndSoonerIsPlacedFirst() throws Exception {
        // given: one node of one CPU, held by a pod that runs until deleted; both DAGs parsed
        KubernetesClient client = up.start(directory, "--nodes", "1:cpu=1,memory=4Gi", "--peer", "airflow");
        Pod blocker = client.pods().inNamespace("default").resource(new PodBuilder()
                .withNewMetadata().withName("blocker").endMetadata()
                .withNewSpec().withSchedulerName("muster").addNewContainer().withName("main").withImage("busybox:1.36")
                .withNewResources().withRequests(Map.of("cpu", new Quantity("1"))).endResources().endContainer().endSpec()
                .build()).create();
        await("the blocker bound").atMost(WAIT).until(() -> client.pods().resource(blocker).get().getSpec().getNodeName() != null);
        AirflowUpRest airflow = AirflowUpRest.of(up.kubeconfig());
        airflow.addDagFile("muster_up_competing.py");
        await("Airflow answers and has parsed both DAGs").atMost(START).pollInterval(Duration.ofSeconds(5)).ignoreExceptions()
                .failFast("muster up exited", () -> !up.isRunning())
                .until(() -> airflow.knows(LONG) && airflow.knows(SHORT));

        // when: the long DAG's run first, so that its pod is the older, then the short DAG's
        String longRun = airflow.trigger(LONG);
        Pod longPod = awaitFirstPod(client, LONG);
        String shortRun = airflow.trigger(SHORT);
        Pod shortPod = awaitFirstPod(client, SHORT);
        // both wait with their hints: a has 180 s left, s 60 s; Airflow's weights say a (15) before s (1)
        await("both PodGroups' hints").atMost(WAIT).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            assertThat(hints(client, longPod)).containsEntry(DagAnnotations.REMAINING_PATH, "180")
                    .containsEntry(DagAnnotations.PRIORITY_WEIGHT, "15");
            assertThat(hints(client, shortPod)).containsEntry(DagAnnotations.REMAINING_PATH, "60")
                    .containsEntry(DagAnnotations.PRIORITY_WEIGHT, "1");
        });
        assertThat(List.of(client.pods().resource(shortPod).get(), client.pods().resource(longPod).get()))
                .allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).as("%s bound before the blocker went", name(pod)).isNull());
        client.pods().resource(blocker).withGracePeriod(0).delete();

        // then: when the first of them is bound, it is s's pod and a's still waits (s runs 5 s on the one CPU)
        List<Pod> atFirstBinding = await("the first binding").atMost(WAIT).pollInterval(Duration.ofMillis(100))
                .until(() -> List.of(client.pods().resource(shortPod).get(), client.pods().resource(longPod).get()),
                        pods -> pods.stream().anyMatch(pod -> pod.getSpec().getNodeName() != null));
        assertThat(atFirstBinding).extracting(AirflowCompetingRunsOnMusterUpTest::name, pod -> pod.getSpec().getNodeName() != null)
                .containsExactly(tuple(name(shortPod), true), tuple(name(longPod), false));
        // and a's pod is bound after s's has run its 5 s, as the pods' PodScheduled conditions say too (whole seconds)
        Pod longBound = await("a's pod bound").atMost(WAIT).pollInterval(Duration.ofSeconds(1))
                .until(() -> client.pods().resource(longPod).get(), pod -> pod.getSpec().getNodeName() != null);
        Instant shortScheduled = scheduled(client.pods().resource(shortPod).get()).orElseThrow();
        assertThat(scheduled(longBound)).hasValueSatisfying(time -> assertThat(time).isAfterOrEqualTo(shortScheduled.plusSeconds(4)));
        // and both runs go on to succeed, the long one through b and c on the freed CPU
        await("both runs succeeded").atMost(WAIT).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            assertThat(airflow.runState(SHORT, shortRun)).isEqualTo("success");
            assertThat(airflow.runState(LONG, longRun)).isEqualTo("success");
        });
    }

    /** The pod of the DAG's first task, once Airflow has made it. */
    private static Pod awaitFirstPod(KubernetesClient client, String dag) {
        return await(dag + "'s first pod").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> client.pods().inNamespace("default").withLabel("dag_id", dag).list().getItems(), pods -> pods.size() == 1)
                .get(0);
    }

    /** The annotations of the PodGroup the pod names, empty until it exists. */
    private static Map<String, String> hints(KubernetesClient client, Pod pod) {
        String group = pod.getMetadata().getAnnotations().get(SchedulingApi.GROUP_NAME_ANNOTATION);
        GenericKubernetesResource podGroup = client.genericKubernetesResources(VolcanoObjects.POD_GROUPS).inNamespace("default")
                .withName(group).get();
        return podGroup == null || podGroup.getMetadata().getAnnotations() == null ? Map.of() : podGroup.getMetadata().getAnnotations();
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getName();
    }

    private static Optional<Instant> scheduled(Pod pod) {
        return pod.getStatus().getConditions().stream().filter(condition -> "PodScheduled".equals(condition.getType()))
                .filter(condition -> "True".equals(condition.getStatus()))
                .map(PodCondition::getLastTransitionTime).map(Instant::parse).findFirst();
    }
}
