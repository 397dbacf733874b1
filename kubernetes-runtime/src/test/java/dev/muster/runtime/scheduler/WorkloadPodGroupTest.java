package dev.muster.runtime.scheduler;

import static dev.muster.runtime.kubernetes.Manifests.gang;
import static dev.muster.runtime.kubernetes.Manifests.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

import dev.muster.engine.model.JobId;
import dev.muster.runtime.controller.CustomResourceDefinitions;
import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.kubernetes.LiveScheduler;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kubernetes' Workload API PodGroups ({@code scheduling.k8s.io/v1alpha2}) through the runtime: watched
 * where the API server serves them (here a CRD stands in for the built-in kind, see
 * {@code workload-api/podgroups-crd.yaml}), their pods bound all or nothing, a bad one reported by an
 * Event while the others are scheduled; and where the server does not serve them, as kube-apiserver
 * 1.34 does not, the runtime starts and schedules all else.
 */
class WorkloadPodGroupTest {
    private static final CustomResourceDefinitions WORKLOAD_API =
            new CustomResourceDefinitions(WorkloadPodGroupTest.class, "/workload-api/podgroups-crd.yaml");

    private static String podGroup(String name, String schedulingPolicy) {
        return """
                apiVersion: scheduling.k8s.io/v1alpha2
                kind: PodGroup
                metadata: {name: %s, namespace: default}
                spec:
                  schedulingPolicy: %s
                ---
                """.formatted(name, schedulingPolicy);
    }

    private static String pods(String group, int count, String cpu) {
        StringBuilder yaml = new StringBuilder();
        for (int index = 0; index < count; index++) {
            yaml.append("""
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: %s-%d, namespace: default}
                    spec:
                      schedulerName: muster
                      schedulingGroup: {podGroupName: %s}
                      containers: [{name: main, image: busybox, resources: {requests: {cpu: "%s"}}}]
                    ---
                    """.formatted(group, index, group, cpu));
        }
        return yaml.toString();
    }

    @Test
    void aWorkloadGangIsBoundWholeAndOneThatDoesNotFitIsNotBoundAtAll() throws InterruptedException {
        try (TestingApiServer server = new TestingApiServer(WORKLOAD_API)) {
            // given: 8 cpu; a gang of four 1-cpu pods fits, a gang of three 3-cpu pods does not beside it
            KubernetesClient client = server.client();
            ClusterObjects.create(client, node("n1", "8", "32Gi")
                    + podGroup("fits", "{gang: {minCount: 4}}") + pods("fits", 4, "1")
                    + podGroup("too-big", "{gang: {minCount: 3}}") + pods("too-big", 3, "3"));

            try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
                // when
                CycleReport report = scheduler.runCycle();

                // then
                assertThat(report.written().bound()).isEqualTo(4);
                await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(nodes(client, "fits")).containsOnly("n1"));
                assertThat(nodes(client, "too-big")).containsOnly("");
                assertThat(report.decisions().jobs().get(new JobId("default", "too-big")).ready()).isFalse();
                // its status is kube-scheduler's to write: why it waits is an Event on it, once however many cycles
                scheduler.runCycle();
                await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(events(client, "too-big", "Unschedulable"))
                        .singleElement().satisfies(event -> {
                            assertThat(event.getType()).isEqualTo("Warning");
                            assertThat(event.getInvolvedObject().getApiVersion()).isEqualTo("scheduling.k8s.io/v1alpha2");
                            assertThat(event.getMessage()).isEqualTo(report.decisions().jobs().get(new JobId("default", "too-big"))
                                    .reason().orElseThrow());
                        }));
                assertThat(events(client, "fits", "Unschedulable")).isEmpty();
                // the pods name their group in their spec: Muster neither annotates them nor makes a Volcano PodGroup
                assertThat(server.requests("PATCH", "/pods/")).isZero();
                assertThat(ClusterObjects.list(client, "scheduling.volcano.sh/v1beta1 PodGroup")).isEmpty();
            }
        }
    }

    @Test
    void aBadWorkloadPodGroupGetsAnEventNamingTheFieldAndValueAndTheOthersAreScheduled() throws InterruptedException {
        try (TestingApiServer server = new TestingApiServer(WORKLOAD_API)) {
            // given
            KubernetesClient client = server.client();
            ClusterObjects.create(client, node("n1", "8", "32Gi")
                    + podGroup("bad", "{gang: {minCount: 0}}") + pods("bad", 2, "1")
                    + podGroup("good", "{gang: {minCount: 2}}") + pods("good", 2, "1")
                    + gang("volcano", 2, "default", "1"));

            try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
                // when
                CycleReport report = scheduler.runCycle();

                // then
                assertThat(report.written().bound()).isEqualTo(4);
                assertThat(nodes(client, "bad")).containsOnly("");
                await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(invalidSpecEvents(client, "bad"))
                        .extracting(Event::getMessage).containsExactly("spec.schedulingPolicy.gang.minCount: 0 is less than 1"));
                Event event = invalidSpecEvents(client, "bad").get(0);
                assertThat(event.getInvolvedObject().getApiVersion()).isEqualTo("scheduling.k8s.io/v1alpha2");
                assertThat(event.getInvolvedObject().getKind()).isEqualTo("PodGroup");
            }
        }
    }

    @Test
    void whereTheWorkloadApiIsNotServedTheRuntimeStartsAndSchedulesTheRest() throws InterruptedException {
        try (TestingApiServer server = new TestingApiServer()) {
            // given: a server without scheduling.k8s.io/v1alpha2, as kube-apiserver 1.34 or 1.36 without the gate
            KubernetesClient client = server.client();
            ClusterObjects.create(client, node("n1", "8", "32Gi") + gang("volcano", 2, "default", "1"));

            try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
                // when
                CycleReport report = scheduler.runCycle();

                // then
                assertThat(scheduler.cache().unsyncedKinds()).isEmpty();
                assertThat(report.written().bound()).isEqualTo(2);
            }
        }
    }

    @Test
    void aClusterRoleThatDoesNotGrantTheWorkloadApiDoesNotKeepTheRuntimeFromStarting() throws InterruptedException {
        try (TestingApiServer server = new TestingApiServer(WORKLOAD_API)) {
            // given: served, but Muster may not list it (a ClusterRole older than this reading)
            KubernetesClient client = server.client();
            ClusterObjects.create(client, node("n1", "8", "32Gi") + gang("volcano", 2, "default", "1")
                    + podGroup("fits", "{gang: {minCount: 1}}") + pods("fits", 1, "1"));
            server.fail("/apis/scheduling.k8s.io/v1alpha2/podgroups", 403);

            // before, a 403 was retried for ever and start never returned
            LiveScheduler scheduler = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> LiveScheduler.connect(client));
            try (scheduler) {
                // when
                CycleReport report = scheduler.runCycle();

                // then: the Volcano gang is bound; the pod of the unread PodGroup is not scheduled
                assertThat(scheduler.cache().unsyncedKinds()).isEmpty();
                assertThat(report.written().bound()).isEqualTo(2);
                assertThat(nodes(client, "fits")).containsOnly("");
            }
        }
    }

    private static List<String> nodes(KubernetesClient client, String group) {
        return client.pods().inNamespace("default").list().getItems().stream()
                .filter(pod -> pod.getMetadata().getName().startsWith(group + "-"))
                .map(Pod::getSpec)
                .map(spec -> spec.getNodeName() == null ? "" : spec.getNodeName())
                .toList();
    }

    private static List<Event> invalidSpecEvents(KubernetesClient client, String name) {
        return events(client, name, "InvalidSpec");
    }

    private static List<Event> events(KubernetesClient client, String name, String reason) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(event -> event.getReason().equals(reason) && event.getInvolvedObject().getName().equals(name))
                .toList();
    }
}
