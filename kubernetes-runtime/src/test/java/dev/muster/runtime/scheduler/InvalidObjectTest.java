package dev.muster.runtime.scheduler;

import static dev.muster.runtime.kubernetes.Manifests.gang;
import static dev.muster.runtime.kubernetes.Manifests.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.kubernetes.LiveScheduler;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Objects that fail validation get an Event each (and a PodGroup its Unschedulable condition), once,
 * while every valid gang beside them is scheduled.
 */
class InvalidObjectTest {
    private static final String POD_GROUP = "scheduling.volcano.sh/v1beta1 PodGroup";
    private static final String BAD_OBJECTS = """
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: PodGroup
            metadata: {name: negative, namespace: default}
            spec: {minMember: -1, queue: default}
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: negative-0
              namespace: default
              annotations: {scheduling.k8s.io/group-name: negative}
            spec:
              schedulerName: muster
              containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: malformed, namespace: default}
            spec:
              schedulerName: muster
              containers: [{name: main, image: busybox, resources: {requests: {cpu: "lots"}}}]
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: foreign, namespace: default}
            spec:
              schedulerName: default-scheduler
              nodeName: n1
              containers: [{name: main, image: busybox, resources: {requests: {cpu: "lots"}}}]
            ---
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: Queue
            metadata: {name: broken}
            spec: {weight: 1, capability: {cpu: "many"}}
            ---
            """;

    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void badObjectsGetOneEventEachAndValidGangsAreBound() throws InterruptedException {
        // given
        ClusterObjects.create(client, node("n1", "8", "32Gi") + gang("first", 2, "default", "1") + BAD_OBJECTS
                + gang("second", 3, "default", "1"));

        try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
            // when
            CycleReport report = scheduler.runCycle();

            // then: the valid gangs are bound
            assertThat(report.written().bound()).isEqualTo(5);
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                assertThat(invalidSpecEvents("negative")).extracting(Event::getMessage).containsExactly("spec.minMember: -1 is negative");
                assertThat(invalidSpecEvents("malformed")).extracting(Event::getMessage)
                        .containsExactly("spec.containers[0].resources.requests.cpu: 'lots' is not a Kubernetes quantity");
                assertThat(invalidSpecEvents("broken")).extracting(Event::getMessage)
                        .containsExactly("spec.capability.cpu: 'many' is not a Kubernetes quantity");
            });
            assertThat(invalidSpecEvents("foreign")).isEmpty();
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(podScheduled("malformed"))
                    .extracting(PodCondition::getStatus, PodCondition::getReason, PodCondition::getMessage)
                    .containsExactly("False", "InvalidSpec", "spec.containers[0].resources.requests.cpu: 'lots' is not a Kubernetes quantity"));
            Event event = invalidSpecEvents("negative").get(0);
            assertThat(event.getType()).isEqualTo("Warning");
            assertThat(event.getInvolvedObject().getKind()).isEqualTo("PodGroup");
            assertThat(event.getInvolvedObject().getUid()).isEqualTo(podGroup("negative").getMetadata().getUid());
            Map<String, Object> condition = KubernetesSchedulerTest.condition(podGroup("negative"), "Unschedulable");
            assertThat(condition)
                    .containsEntry("status", "True")
                    .containsEntry("reason", "InvalidSpec")
                    .containsEntry("message", "spec.minMember: -1 is negative")
                    .containsKey("lastTransitionTime");
            assertThat(report.decisions().jobs().get(new dev.muster.engine.model.JobId("default", "negative")).reason())
                    .contains("spec.minMember: -1 is negative");
        }
    }

    @Test
    void moreCyclesAddNoEventAndNoStatusWrite() throws InterruptedException {
        // given: the bad objects reported and the valid gangs bound
        ClusterObjects.create(client, node("n1", "8", "32Gi") + gang("first", 2, "default", "1") + BAD_OBJECTS);
        try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
                scheduler.runCycle();
                return scheduler.reports().get(scheduler.reports().size() - 1).written().statuses() == 0
                        && scheduler.cache().bindsInFlight().isEmpty() && invalidSpecEvents("negative").size() == 1
                        && "InvalidSpec".equals(podScheduled("malformed").getReason());
            });
            long events = server.requests("POST", "/events");
            long statuses = server.requests("PATCH", "/podgroups/negative");
            long podStatuses = server.requests("PATCH", "/pods/malformed/status");

            // when
            for (int cycle = 0; cycle < 5; cycle++) {
                scheduler.runCycle();
            }

            // then
            assertThat(server.requests("POST", "/events")).isEqualTo(events);
            assertThat(server.requests("PATCH", "/podgroups/negative")).isEqualTo(statuses).isEqualTo(1);
            assertThat(server.requests("PATCH", "/pods/malformed/status")).isEqualTo(podStatuses).isEqualTo(1);
            assertThat(invalidSpecEvents("negative")).hasSize(1);
            assertThat(invalidSpecEvents("malformed")).hasSize(1);
            assertThat(invalidSpecEvents("broken")).hasSize(1);
            assertThat(KubernetesSchedulerTest.conditions(podGroup("negative"))).hasSize(1);
        }
    }

    @Test
    void aPodInAQueueThatDoesNotExistGetsAnEventNamingTheAnnotation() throws InterruptedException {
        // given
        ClusterObjects.create(client, node("n1", "8", "32Gi") + """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: lost
                  namespace: default
                  annotations: {scheduling.volcano.sh/queue-name: nowhere}
                spec:
                  schedulerName: muster
                  containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
                """);

        try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
            // when
            scheduler.runCycle();

            // then
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(invalidSpecEvents("lost"))
                    .extracting(Event::getMessage)
                    .containsExactly("metadata.annotations.scheduling.volcano.sh/queue-name: queue 'nowhere' does not exist"));
            assertThat(client.pods().inNamespace("default").withName("lost").get().getSpec().getNodeName()).isNull();
        }
    }

    private GenericKubernetesResource podGroup(String name) {
        return ClusterObjects.get(client, POD_GROUP, "default", name);
    }

    private PodCondition podScheduled(String pod) {
        Pod stored = client.pods().inNamespace("default").withName(pod).get();
        List<PodCondition> conditions = stored.getStatus() == null ? List.of() : stored.getStatus().getConditions();
        return conditions.stream().filter(condition -> condition.getType().equals("PodScheduled")).findFirst().orElse(new PodCondition());
    }

    private List<Event> invalidSpecEvents(String name) {
        return client.v1().events().inAnyNamespace().list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getName().equals(name) && event.getReason().equals("InvalidSpec"))
                .toList();
    }
}
