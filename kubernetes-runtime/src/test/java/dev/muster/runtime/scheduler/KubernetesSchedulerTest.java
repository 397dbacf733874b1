package dev.muster.runtime.scheduler;

import static dev.muster.runtime.kubernetes.Manifests.gang;
import static dev.muster.runtime.kubernetes.Manifests.node;
import static dev.muster.runtime.kubernetes.Manifests.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.engine.model.JobId;
import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.kubernetes.LiveScheduler;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The scheduler against an API server: informers in, binds, status and events out. */
class KubernetesSchedulerTest {
    private static final String POD_GROUP = "scheduling.volcano.sh/v1beta1 PodGroup";
    private static final String QUEUE = "scheduling.volcano.sh/v1beta1 Queue";

    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void aGangIsBoundWholeAndAGangThatDoesNotFitIsMarkedUnschedulable() throws InterruptedException {
        // given
        ClusterObjects.create(client, node("n1", "4", "16Gi") + node("n2", "4", "16Gi")
                + gang("train", 3, "default", "2") + gang("big", 2, "default", "2"));

        try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
            // when
            CycleReport report = scheduler.runCycle();

            // then
            assertThat(nodesOf("train")).hasSize(3).doesNotContainValue("");
            assertThat(nodesOf("big")).containsOnlyKeys("big-0", "big-1").containsValues("", "");
            String reason = report.decisions().jobs().get(new JobId("default", "big")).reason().orElseThrow();
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                GenericKubernetesResource big = ClusterObjects.get(client, POD_GROUP, "default", "big");
                assertThat(condition(big, "Unschedulable"))
                        .containsEntry("status", "True")
                        .containsEntry("reason", "NotEnoughResources")
                        .containsEntry("message", reason);
                assertThat(events("big")).extracting(Event::getReason).contains("Unschedulable");
                assertThat(events("big-0")).extracting(Event::getReason).contains("FailedScheduling");
            });
            assertThat(reason).startsWith("1/2 tasks of the gang fit");
        }
    }

    @Test
    void theFirstCycleCreatesTheDefaultQueueAndAPodGroupForALonePod() throws InterruptedException {
        // given
        ClusterObjects.create(client, node("n1", "4", "16Gi") + """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: lone
                  namespace: default
                  annotations: {scheduling.volcano.sh/queue-name: default}
                spec:
                  schedulerName: muster
                  containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
                """);
        String uid = client.pods().inNamespace("default").withName("lone").get().getMetadata().getUid();

        try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
            // when
            scheduler.runCycle();

            // then
            assertThat(ClusterObjects.get(client, QUEUE, "", "default")).isNotNull();
            GenericKubernetesResource podGroup = ClusterObjects.get(client, POD_GROUP, "default", "podgroup-" + uid);
            assertThat(podGroup).isNotNull();
            assertThat(podGroup.getMetadata().getOwnerReferences()).singleElement()
                    .satisfies(owner -> assertThat(owner.getUid()).isEqualTo(uid));
            assertThat(podGroup.<Object>get("spec", "minMember")).isEqualTo(1);
            assertThat(nodesOf("lone")).containsEntry("lone", "n1");
        }
    }

    @Test
    void aPodThatJoinsAnAutomaticPodGroupAfterItWasMadeIsAnnotatedToo() throws InterruptedException {
        // given: a pod of one owner (as a Workflow owns its pods), its automatic PodGroup made by a first cycle
        ClusterObjects.create(client, node("n1", "4", "16Gi") + owned("first"));
        try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
            scheduler.runCycle();
            await().atMost(Duration.ofSeconds(5)).until(() -> scheduler.cache().snapshot().podGroups().containsKey(OWNED_GROUP));

            // when: a second pod of the owner comes
            ClusterObjects.create(client, owned("second"));
            await().atMost(Duration.ofSeconds(5)).until(() -> scheduler.cache().snapshot().cluster().jobs().get(OWNED_GROUP).tasks().size() == 2);
            scheduler.runCycle();

            // then: both name the one PodGroup, and both are bound
            assertThat(List.of("first", "second")).allSatisfy(name -> assertThat(client.pods().inNamespace("default").withName(name).get()
                    .getMetadata().getAnnotations()).containsEntry("scheduling.k8s.io/group-name", OWNED_GROUP.name()));
            assertThat(nodesOf("first")).containsEntry("first", "n1");
            assertThat(nodesOf("second")).containsEntry("second", "n1");
        }
    }

    @Test
    void aPodIsNotAnnotatedWithAPodGroupThatCouldNotBeMadeAndIsWhenItIs() throws InterruptedException {
        // given: creating PodGroups in the namespace is refused (as a webhook or quota would)
        ClusterObjects.create(client, node("n1", "4", "16Gi") + owned("first"));
        try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
            server.fail("/namespaces/default/podgroups", 403);

            // when
            scheduler.runCycle();

            // then: the pod names no PodGroup that does not exist
            assertThat(client.pods().inNamespace("default").withName("first").get().getMetadata().getAnnotations())
                    .doesNotContainKey("scheduling.k8s.io/group-name");

            // when: the refusal ends
            server.clearFaults();
            scheduler.runCycle();

            // then
            assertThat(ClusterObjects.get(client, POD_GROUP, "default", OWNED_GROUP.name())).isNotNull();
            assertThat(client.pods().inNamespace("default").withName("first").get().getMetadata().getAnnotations())
                    .containsEntry("scheduling.k8s.io/group-name", OWNED_GROUP.name());
        }
    }

    private static final JobId OWNED_GROUP = new JobId("default", "podgroup-0b5e6c1a-owner");

    private static String owned(String name) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: default
                  ownerReferences: [{apiVersion: argoproj.io/v1alpha1, kind: Workflow, name: wf, uid: 0b5e6c1a-owner, controller: true}]
                spec:
                  schedulerName: muster
                  containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
                ---
                """.formatted(name);
    }

    @Test
    void aQueuesCapabilityHoldsAcrossCycles() throws InterruptedException {
        // given
        ClusterObjects.create(client, node("n1", "16", "64Gi") + queue("small", "4")
                + gang("a", 1, "small", "2") + gang("b", 1, "small", "2") + gang("c", 1, "small", "2") + gang("d", 1, "small", "2"));

        try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
            // when
            for (int cycle = 0; cycle < 3; cycle++) {
                scheduler.runCycle();
                await().atMost(Duration.ofSeconds(5)).until(() -> scheduler.cache().bindsInFlight().isEmpty());
            }

            // then
            List<String> bound = List.of("a-0", "b-0", "c-0", "d-0").stream()
                    .filter(pod -> !nodeName(client.pods().inNamespace("default").withName(pod).get()).isEmpty())
                    .toList();
            assertThat(bound).hasSize(2);
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                GenericKubernetesResource small = ClusterObjects.get(client, QUEUE, "", "small");
                assertThat(small.<Object>get("status", "allocated", "cpu")).isEqualTo("4");
                assertThat(small.<Object>get("status", "running")).isEqualTo(2);
                assertThat(small.<Object>get("status", "state")).isEqualTo("Open");
            });
        }
    }

    Map<String, String> nodesOf(String prefix) {
        return client.pods().inNamespace("default").list().getItems().stream()
                .filter(pod -> pod.getMetadata().getName().startsWith(prefix))
                .collect(Collectors.toMap(pod -> pod.getMetadata().getName(), KubernetesSchedulerTest::nodeName));
    }

    static String nodeName(Pod pod) {
        return pod.getSpec().getNodeName() == null ? "" : pod.getSpec().getNodeName();
    }

    List<Event> events(String name) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getName().equals(name))
                .toList();
    }

    static Map<String, Object> condition(GenericKubernetesResource podGroup, String type) {
        return conditions(podGroup).stream()
                .filter(condition -> type.equals(condition.get("type")))
                .findFirst()
                .orElse(Map.of());
    }

    static List<Map<String, Object>> conditions(GenericKubernetesResource podGroup) {
        List<Map<String, Object>> conditions = podGroup.get("status", "conditions");
        return conditions == null ? List.of() : conditions;
    }
}
