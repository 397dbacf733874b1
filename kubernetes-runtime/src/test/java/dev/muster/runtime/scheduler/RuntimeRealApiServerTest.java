package dev.muster.runtime.scheduler;

import static dev.muster.runtime.kubernetes.Manifests.gang;
import static dev.muster.runtime.kubernetes.Manifests.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import dev.muster.runtime.KubernetesRuntime;
import dev.muster.runtime.TestingRuntime;
import dev.muster.runtime.binding.BindResult;
import dev.muster.runtime.informers.TestingCacheFeed;
import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.kubernetes.LiveScheduler;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The runtime, wired as {@code muster run} wires it, against a real kube-apiserver and etcd: the
 * scenarios the embedded server's tests cover, where the real server's semantics decide (the Binding
 * subresource's 409, status writes through a CRD without a status subresource, RBAC-free admin).
 * No kubelet runs, so pods are never started: binding is what these tests observe.
 */
@WithRealControlPlane(nodes = 2, nodeCpu = "4", nodeMemory = "16Gi")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class RuntimeRealApiServerTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String POD_GROUP = "scheduling.volcano.sh/v1beta1 PodGroup";

    private final KubernetesClient client;

    RuntimeRealApiServerTest(RealControlPlane controlPlane) {
        this.client = controlPlane.client();
    }

    @AfterEach
    void deleteWorkloads() {
        // no kubelet confirms a bound pod's graceful deletion, so delete at once
        client.pods().inNamespace("default").withGracePeriod(0).delete();
        client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup").inNamespace("default").delete();
        await().atMost(WAIT).until(() -> client.pods().inNamespace("default").list().getItems().isEmpty());
    }

    @Test
    void startsAgainstAServerThatDoesNotServeEveryKindItWatches() {
        // given: no scheduler-plugins CRD, as in most clusters (deploy/ ships Volcano's only), and no Workload API
        // PodGroups, which kube-apiserver serves from 1.36 only
        assertThat(client.apiextensions().v1().customResourceDefinitions().withName("podgroups.scheduling.x-k8s.io").get()).isNull();
        assertThat(client.getApiGroup("scheduling.k8s.io").getVersions()).extracting(version -> version.getVersion())
                .doesNotContain("v1alpha2");

        // when, then: the informers' first lists are in, the kind not served left unwatched, and the runtime runs
        KubernetesRuntime runtime = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> start(Set.of("muster")));
        try {
            ClusterObjects.create(client, gang("started", 1, "default", "1"));
            await().atMost(WAIT).until(() -> bound("started-").size() == 1);
        } finally {
            assertTimeoutPreemptively(Duration.ofSeconds(60), runtime::stop);
        }
    }

    @Test
    void aGangIsBoundWholeOrNotAtAllAndAGangThatDoesNotFitSaysWhyOnItsPodGroup() throws InterruptedException {
        // given: room for two 3-cpu pods on two 4-cpu nodes; one gang of two, one of three
        KubernetesRuntime runtime = start(Set.of("muster"));
        try {
            // when
            ClusterObjects.create(client, gang("pair", 2, "default", "3") + gang("trio", 3, "default", "3"));

            // then: one of them is bound whole, on both nodes, and the other not at all, with its reason
            await().atMost(WAIT).until(() -> bound("pair-").size() + bound("trio-").size() == 2 || bound("trio-").size() == 3);
            Map<String, String> pair = bound("pair-");
            Map<String, String> trio = bound("trio-");
            assertThat(pair.size() == 2 ? trio : pair).isEmpty();
            String waiting = pair.size() == 2 ? "trio" : "pair";
            await().atMost(WAIT).untilAsserted(() -> assertThat(KubernetesSchedulerTest.condition(podGroupOf(waiting), "Unschedulable"))
                    .containsEntry("status", "True")
                    .containsEntry("reason", "NotEnoughResources"));
            assertThat(KubernetesSchedulerTest.condition(podGroupOf(waiting), "Unschedulable").get("message").toString())
                    .contains("tasks of the gang fit");
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> bound(waiting + "-").isEmpty());
            assertNoNodeOvercommitted();
        } finally {
            runtime.stop();
        }
    }

    @Test
    void aQueueCapabilityHoldsAcrossCyclesAndTheNextGangGoesWhenRoomIsFreed() throws InterruptedException {
        // given: a queue capped at 2 cpu and two 2-cpu gangs in it, room for both in the cluster
        ClusterObjects.create(client, queue("capped", "2"));
        KubernetesRuntime runtime = start(Set.of("muster"));
        try {
            ClusterObjects.create(client, gang("first", 1, "capped", "2") + gang("second", 1, "capped", "2"));

            // then: one is bound, and the other waits, cycle after cycle
            await().atMost(WAIT).until(() -> bound("first-").size() + bound("second-").size() == 1);
            String running = bound("first-").isEmpty() ? "second" : "first";
            String waiting = running.equals("first") ? "second" : "first";
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> bound(waiting + "-").isEmpty());

            // when: the running one's pod goes
            client.pods().inNamespace("default").withName(running + "-0").withGracePeriod(0).delete();

            // then: the waiting one is bound
            await().atMost(WAIT).until(() -> bound(waiting + "-").size() == 1);
        } finally {
            runtime.stop();
        }
    }

    @Test
    void twoSchedulersInOneClusterEachWriteOnlyTheStatusOfTheirOwnPodGroups() throws InterruptedException {
        // given: Muster as "muster-a" and as "muster-b", and a PodGroup for each, plus one whose pods are another scheduler's
        KubernetesRuntime a = start(Set.of("muster-a"));
        KubernetesRuntime b = start(Set.of("muster-b"));
        try {
            // when
            ClusterObjects.create(client, gang("of-a", 2, "default", "1").replace("schedulerName: muster", "schedulerName: muster-a")
                    + gang("of-b", 2, "default", "1").replace("schedulerName: muster", "schedulerName: muster-b")
                    + gang("of-another", 1, "default", "1").replace("schedulerName: muster", "schedulerName: default-scheduler"));

            // then: each gang is bound by its scheduler and its PodGroup says Running, and stays so, unwritten
            await().atMost(WAIT).until(() -> bound("of-a-").size() == 2 && bound("of-b-").size() == 2
                    && "Running".equals(phase("of-a")) && "Running".equals(phase("of-b")));
            String versionOfA = podGroupOf("of-a").getMetadata().getResourceVersion();
            String versionOfB = podGroupOf("of-b").getMetadata().getResourceVersion();
            String versionOfAnother = podGroupOf("of-another").getMetadata().getResourceVersion();
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4)).until(() ->
                    podGroupOf("of-a").getMetadata().getResourceVersion().equals(versionOfA)
                            && podGroupOf("of-b").getMetadata().getResourceVersion().equals(versionOfB)
                            && podGroupOf("of-another").getMetadata().getResourceVersion().equals(versionOfAnother));
            // and the PodGroup whose pods wait for a scheduler that does not run here is at most admitted, never claimed
            assertThat(phase("of-another")).isIn("", "Inqueue");
            assertThat(KubernetesSchedulerTest.conditions(podGroupOf("of-another"))).isEmpty();
            assertThat(bound("of-another-")).isEmpty();
        } finally {
            a.stop();
            b.stop();
        }
    }

    @Test
    void aBindAnsweredWithConflictIsSurvivedAndNothingIsBoundTwice() throws InterruptedException {
        // given: a cache that still sees a pod pending that someone else has bound since
        if (ClusterObjects.get(client, "scheduling.volcano.sh/v1beta1 Queue", "", "default") == null) {
            ClusterObjects.create(client, queue("default", ""));
        }
        ClusterObjects.create(client, gang("taken", 2, "default", "1"));
        try (LiveScheduler scheduler = LiveScheduler.unconnected(client)) {
            TestingCacheFeed.copy(client, scheduler.cache(), "nodes");
            TestingCacheFeed.copy(client, scheduler.cache(), "podgroups");
            TestingCacheFeed.copy(client, scheduler.cache(), "pods");
            TestingCacheFeed.copy(client, scheduler.cache(), "queues");
            TestingCacheFeed.markSyncedExcept(scheduler.cache());
            client.bindings().inNamespace("default").resource(new BindingBuilder()
                    .withNewMetadata().withName("taken-0").endMetadata()
                    .withNewTarget().withApiVersion("v1").withKind("Node").withName("node-1").endTarget()
                    .build()).create();

            // when
            CycleReport report = scheduler.runCycle();

            // then: the real server refuses the second bind with 409, the other member is bound, and the first stays where it was
            assertThat(report.written().binds()).extracting(BindResult::status)
                    .containsExactlyInAnyOrder(BindResult.Status.CONFLICT, BindResult.Status.BOUND);
            assertThat(report.written().binds()).filteredOn(bind -> bind.status() == BindResult.Status.CONFLICT)
                    .singleElement().satisfies(bind -> assertThat(bind.task().name()).isEqualTo("taken-0"));
            assertThat(bound("taken-")).containsEntry("taken-0", "node-1").hasSize(2);

            // and the next cycle, its cache caught up, binds nothing again
            TestingCacheFeed.copy(client, scheduler.cache(), "pods");
            await().atMost(WAIT).until(() -> scheduler.cache().bindsInFlight().isEmpty());
            assertThat(scheduler.runCycle().written().binds()).isEmpty();
        }
    }

    @Test
    void aSchedulerRestartedWhileGangsArePendingMovesNoPodAndOvercommitsNoNode() throws InterruptedException {
        // given: a scheduler that bound some gangs, then stopped while more arrived
        KubernetesRuntime first = start(Set.of("muster"));
        ClusterObjects.create(client, gang("early-a", 2, "default", "1") + gang("early-b", 2, "default", "1"));
        await().atMost(WAIT).until(() -> bound("early-").size() == 4);
        first.stop();
        Map<String, String> before = bound("early-");
        ClusterObjects.create(client, gang("late-a", 2, "default", "1") + gang("late-b", 2, "default", "1"));

        // when: a new one, with a new cache, starts
        KubernetesRuntime second = start(Set.of("muster"));
        try {
            // then: the late gangs are bound, no early pod moved, and no node holds more than it has
            await().atMost(WAIT).until(() -> bound("late-").size() == 4);
            assertThat(bound("early-")).isEqualTo(before);
            assertNoNodeOvercommitted();
        } finally {
            second.stop();
        }
    }

    private KubernetesRuntime start(Set<String> schedulerNames) throws InterruptedException {
        KubernetesRuntime runtime = TestingRuntime.create(client, TestingRuntime.options(schedulerNames, Optional.empty()), Clock.systemUTC());
        runtime.start();
        return runtime;
    }

    private GenericKubernetesResource podGroupOf(String name) {
        return ClusterObjects.get(client, POD_GROUP, "default", name);
    }

    private String phase(String podGroup) {
        Object status = podGroupOf(podGroup).getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map && map.get("phase") != null ? map.get("phase").toString() : "";
    }

    /** The bound pods whose names start with {@code prefix}, by name, with their node. */
    private Map<String, String> bound(String prefix) {
        return client.pods().inNamespace("default").list().getItems().stream()
                .filter(pod -> pod.getMetadata().getName().startsWith(prefix))
                .filter(pod -> !KubernetesSchedulerTest.nodeName(pod).isEmpty())
                .collect(Collectors.toMap(pod -> pod.getMetadata().getName(), KubernetesSchedulerTest::nodeName));
    }

    private void assertNoNodeOvercommitted() {
        Map<String, Double> requested = new HashMap<>();
        for (Pod pod : client.pods().inNamespace("default").list().getItems()) {
            if (!KubernetesSchedulerTest.nodeName(pod).isEmpty()) {
                double cpu = pod.getSpec().getContainers().stream()
                        .mapToDouble(container -> Quantity.getAmountInBytes(container.getResources().getRequests().get("cpu")).doubleValue())
                        .sum();
                requested.merge(KubernetesSchedulerTest.nodeName(pod), cpu, Double::sum);
            }
        }
        List<String> nodes = client.nodes().list().getItems().stream().map(node -> node.getMetadata().getName()).toList();
        for (String node : nodes) {
            double allocatable = Quantity.getAmountInBytes(client.nodes().withName(node).get().getStatus().getAllocatable().get("cpu"))
                    .doubleValue();
            assertThat(requested.getOrDefault(node, 0.0)).as("cpu requested on %s", node).isLessThanOrEqualTo(allocatable);
        }
    }
}
