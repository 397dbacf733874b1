package dev.muster.bridge.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import dev.muster.runtime.RuntimeOptions;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Executor reservation (the engine's {@code executorreservation} plugin) with the real {@code spark-submit}
 * 4.2.0 in cluster mode: once Muster has bound an application's driver, the room of the executors it
 * expects is held, and another job cannot take it until the hold ends. KWOK runs no container, so the
 * driver JVM never starts and its executors never come: the hold lasts until its timeout, after which
 * the other job gets the room, which is what is checked on both sides.
 *
 * <p>Deterministic by sizes: three nodes of 4 cpu; the driver asks for 1 cpu and each of the 3 executors
 * for 3, so one executor fits per node, and holding all three leaves no node with the 2 cpu the other
 * job's pod asks for; without the hold any of the nodes would take it. The queue admits both (the
 * application's 10 cpu and the other's 2 are the cluster's 12), so admission is not what keeps it out
 * (see {@link ExecutorReservationConfig}).
 */
@WithRealControlPlane(nodes = 3, nodeCpu = "4", nodeMemory = "16Gi")
class SparkExecutorReservationIT {
    private static final Duration SUBMIT = Duration.ofMinutes(3);
    private static final Duration BIND = Duration.ofSeconds(60);
    /** Long enough to see the other job kept out on a loaded machine, short enough to see the hold end. */
    private static final String HOLD_TIMEOUT = "60s";
    private static SparkOnRealControlPlane spark;

    @BeforeAll
    static void startSpark(RealControlPlane controlPlane) throws InterruptedException {
        spark = SparkOnRealControlPlane.start(controlPlane, new RuntimeOptions("SparkExecutorReservationIT",
                ExecutorReservationConfig.withExecutorReservation(HOLD_TIMEOUT), Set.of("muster"), Duration.ofMillis(100), Optional.empty()));
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.close();
        }
    }

    @Test
    void anotherJobCannotTakeTheRoomHeldForTheExecutorsUntilTheHoldEnds(KubernetesClient client) throws InterruptedException {
        // given: an application whose driver Muster binds
        String namespace = "reservation";
        SparkOnRealControlPlane.createNamespace(client, namespace);
        Map<String, String> confs = SparkOnRealControlPlane.withMusterStep(SparkOnRealControlPlane.baseConfs(namespace));
        confs.put("spark.executor.instances", "3");
        confs.put("spark.executor.cores", "3");
        SparkOnRealControlPlane.Submission submission = spark.submitCluster("sum-reserved", confs);
        assertThat(submission.await(SUBMIT)).as(submission.output()).isZero();
        Pod driver = client.pods().inNamespace(namespace).withLabel("spark-role", "driver").list().getItems().get(0);
        String podGroup = driver.getMetadata().getLabels().get("spark-app-selector") + "-podgroup";
        await().atMost(BIND).until(() -> nodeOf(client, namespace, driver.getMetadata().getName()) != null);

        // when: another job's pod asks for 2 cpu, which every node has free but for the held room
        client.pods().inNamespace(namespace).resource(other()).create();

        // then: it is kept out, told why, and stays out while the hold lasts
        await().atMost(BIND).until(() -> events(client, namespace, "other").stream()
                .anyMatch(event -> event.getMessage().contains("held for the executors of " + namespace + "/" + podGroup)));
        await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(15)).until(() -> nodeOf(client, namespace, "other") == null);
        assertThat(nodeOf(client, namespace, "other")).as("bound into the held room\n%s", spark.peerLogs()).isNull();

        // and when the hold times out (no executor came: KWOK never starts the driver), the room is the other job's
        try {
            await().atMost(Duration.ofMinutes(3)).until(() -> nodeOf(client, namespace, "other") != null);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("other job not bound after the hold:\n" + describe(client, namespace), e);
        }
        // posted after the session that released the hold, so possibly after the other pod's bind is seen
        await().atMost(BIND).untilAsserted(() -> assertThat(events(client, namespace, podGroup))
                .anyMatch(event -> event.getMessage().startsWith("executor reservation released")));
    }

    /** The namespace's pods, PodGroups and events, for a failure's message. */
    private static String describe(KubernetesClient client, String namespace) {
        StringBuilder text = new StringBuilder();
        client.pods().inNamespace(namespace).list().getItems().forEach(pod -> text.append("pod ").append(pod.getMetadata().getName())
                .append(" node=").append(pod.getSpec().getNodeName()).append(" phase=").append(pod.getStatus().getPhase())
                .append(" started=").append(pod.getStatus().getStartTime()).append('\n'));
        client.genericKubernetesResources(KubernetesAccess.PODGROUPS).inNamespace(namespace).list().getItems().forEach(group -> text
                .append("podgroup ").append(group.getMetadata().getName()).append(' ').append(group.getAdditionalProperties().get("status"))
                .append('\n'));
        client.v1().events().inNamespace(namespace).list().getItems().forEach(event -> text.append("event ")
                .append(event.getLastTimestamp()).append(' ').append(event.getInvolvedObject().getKind()).append('/')
                .append(event.getInvolvedObject().getName()).append(' ').append(event.getReason()).append(": ").append(event.getMessage())
                .append('\n'));
        return text.append(spark.peerLogs()).toString();
    }

    private static Pod other() {
        return new PodBuilder().withNewMetadata().withName("other").endMetadata().withNewSpec().withSchedulerName("muster")
                .addNewContainer().withName("main").withImage("busybox").withNewResources()
                .addToRequests("cpu", new Quantity("2")).addToRequests("memory", new Quantity("256Mi")).endResources().endContainer()
                .endSpec().build();
    }

    private static String nodeOf(KubernetesClient client, String namespace, String pod) {
        Pod current = client.pods().inNamespace(namespace).withName(pod).get();
        return current == null ? null : current.getSpec().getNodeName();
    }

    private static List<Event> events(KubernetesClient client, String namespace, String object) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(event -> object.equals(event.getInvolvedObject().getName())).toList();
    }
}
