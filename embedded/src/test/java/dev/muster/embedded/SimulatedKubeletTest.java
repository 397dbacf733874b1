package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The simulated kubelet runs bound pods for the duration they declare. */
class SimulatedKubeletTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static EmbeddedApiServer server;
    private static KubernetesClient client;
    private static SimulatedKubelet kubelet;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
        kubelet = new SimulatedKubelet(client, Clock.systemUTC());
        kubelet.start();
    }

    @AfterAll
    static void stop() {
        kubelet.close();
        client.close();
        server.close();
    }

    @Test
    void aBoundPodRunsForItsDurationAndSucceeds() {
        create("short", Map.of(SchedulingApi.DURATION_ANNOTATION, "300ms"));

        bind("short");

        await().atMost(WAIT).until(() -> phase("short").equals("Succeeded"));
        Pod pod = client.pods().withName("short").get();
        assertThat(pod.getStatus().getStartTime()).isNotNull();
        assertThat(pod.getStatus().getContainerStatuses()).singleElement()
                .satisfies(status -> assertThat(status.getState().getTerminated().getReason()).isEqualTo("Completed"));
    }

    @Test
    void aPodBoundThroughABindingGetsTheKubeletsConditionsInItsOrderAndItsNodesAddress() {
        SimulatedNodes.create(client, List.of(NodePool.parse("kubelet:1:cpu=4")));
        create("conditions", Map.of());
        create("conditions-done", Map.of(SchedulingApi.DURATION_ANNOTATION, "100ms"));
        bindThroughBinding("conditions");
        String scheduledAt = condition(client.pods().withName("conditions").get(), "PodScheduled").getLastTransitionTime();

        await().atMost(WAIT).until(() -> phase("conditions").equals("Running"));
        Pod running = client.pods().withName("conditions").get();

        assertThat(running.getStatus().getConditions()).extracting(PodCondition::getType, PodCondition::getStatus)
                .containsExactly(tuple("PodReadyToStartContainers", "True"), tuple("Initialized", "True"), tuple("Ready", "True"),
                        tuple("ContainersReady", "True"), tuple("PodScheduled", "True"));
        assertThat(condition(running, "PodScheduled").getLastTransitionTime()).isEqualTo(scheduledAt);
        assertThat(running.getStatus().getHostIP()).isEqualTo("10.0.0.2");
        assertThat(running.getStatus().getPodIPs()).singleElement().satisfies(ip -> assertThat(ip.getIp()).isEqualTo(running.getStatus().getPodIP()));
        assertThat(running.getStatus().getContainerStatuses()).singleElement().satisfies(status -> {
            assertThat(status.getContainerID()).startsWith("muster://");
            assertThat(status.getReady()).isTrue();
            assertThat(status.getStarted()).isTrue();
            assertThat(status.getState().getRunning().getStartedAt()).isNotNull();
        });

        bindThroughBinding("conditions-done");
        await().atMost(WAIT).until(() -> phase("conditions-done").equals("Succeeded"));
        Pod finished = client.pods().withName("conditions-done").get();
        assertThat(finished.getStatus().getConditions()).extracting(PodCondition::getType, PodCondition::getStatus, PodCondition::getReason)
                .containsExactly(tuple("PodReadyToStartContainers", "False", null), tuple("Initialized", "True", "PodCompleted"),
                        tuple("Ready", "False", "PodCompleted"), tuple("ContainersReady", "False", "PodCompleted"),
                        tuple("PodScheduled", "True", null));
        assertThat(finished.getStatus().getContainerStatuses()).singleElement()
                .satisfies(status -> assertThat(status.getReady()).isFalse());
    }

    @Test
    void aPodWithANonZeroExitCodeFails() {
        create("failing", Map.of(SchedulingApi.DURATION_ANNOTATION, "100ms", SchedulingApi.EXIT_CODE_ANNOTATION, "3"));

        bind("failing");

        await().atMost(WAIT).until(() -> phase("failing").equals("Failed"));
        Pod failed = client.pods().withName("failing").get();
        assertThat(failed.getStatus().getContainerStatuses()).singleElement()
                .satisfies(status -> assertThat(status.getState().getTerminated().getExitCode()).isEqualTo(3));
        assertThat(condition(failed, "Ready").getReason()).isEqualTo("PodFailed");
        assertThat(condition(failed, "Initialized").getReason()).isNull();
    }

    @Test
    void aPodWithoutADurationKeepsRunning() {
        create("service", Map.of());
        create("finite", Map.of(SchedulingApi.DURATION_ANNOTATION, "100ms"));

        bind("service");
        bind("finite");

        // the pod with a duration, bound after it, has finished: the one without is still running
        await().atMost(WAIT).until(() -> phase("finite").equals("Succeeded"));
        assertThat(phase("service")).isEqualTo("Running");
    }

    @Test
    void whereArgosExecutorCannotRunAnExecutorPodFailsSayingWhyAndOtherPodsRunAsBefore() {
        // given: the executor refused on this machine
        kubelet.refuseArgoExecutors("Argo's executor cannot run here: unshare: operation not permitted");
        client.resource(new PodBuilder()
                .withNewMetadata().withName("resource-step").withNamespace("default").endMetadata()
                .withNewSpec().addNewInitContainer().withName("init").withImage("quay.io/argoproj/argoexec:v4.0.5")
                .withCommand("argoexec", "init").endInitContainer()
                .addNewContainer().withName("main").withImage("quay.io/argoproj/argoexec:v4.0.5")
                .withCommand("/var/run/argo/argoexec", "emissary", "--", "argoexec", "resource", "create").endContainer().endSpec()
                .build()).create();
        create("plain-step", Map.of(SchedulingApi.DURATION_ANNOTATION, "100ms"));

        // when
        bind("resource-step");
        bind("plain-step");

        // then: the resource template's pod fails with the reason rather than pretending to have made its object
        await().atMost(WAIT).until(() -> phase("resource-step").equals("Failed"));
        assertThat(client.pods().withName("resource-step").get().getStatus().getContainerStatuses()).singleElement()
                .satisfies(status -> {
                    assertThat(status.getState().getTerminated().getExitCode()).isEqualTo(126);
                    assertThat(status.getState().getTerminated().getMessage()).contains("unshare: operation not permitted");
                });
        await().atMost(WAIT).until(() -> phase("plain-step").equals("Succeeded"));
    }

    @Test
    void aPodNobodyBoundStaysPending() {
        create("unbound", Map.of(SchedulingApi.DURATION_ANNOTATION, "100ms"));
        create("bound-later", Map.of(SchedulingApi.DURATION_ANNOTATION, "100ms"));

        bind("bound-later");

        await().atMost(WAIT).until(() -> phase("bound-later").equals("Succeeded"));
        assertThat(phase("unbound")).isEqualTo("Pending");
    }

    private static void create(String name, Map<String, String> annotations) {
        client.resource(new PodBuilder()
                .withNewMetadata().withName(name).withNamespace("default").withAnnotations(annotations).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec()
                .build()).create();
    }

    private static void bind(String name) {
        client.pods().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\": {\"nodeName\": \"node-1\"}}");
    }

    private static void bindThroughBinding(String name) {
        client.bindings().inNamespace("default").resource(new BindingBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewTarget().withKind("Node").withName("kubelet-1").endTarget().build()).create();
    }

    private static PodCondition condition(Pod pod, String type) {
        return pod.getStatus().getConditions().stream().filter(condition -> condition.getType().equals(type)).findFirst().orElseThrow();
    }

    private static String phase(String name) {
        Pod pod = client.pods().withName(name).get();
        return pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase();
    }
}
