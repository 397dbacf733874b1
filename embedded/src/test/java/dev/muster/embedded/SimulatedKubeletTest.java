package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Duration;
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
    void aPodWithANonZeroExitCodeFails() {
        create("failing", Map.of(SchedulingApi.DURATION_ANNOTATION, "100ms", SchedulingApi.EXIT_CODE_ANNOTATION, "3"));

        bind("failing");

        await().atMost(WAIT).until(() -> phase("failing").equals("Failed"));
        assertThat(client.pods().withName("failing").get().getStatus().getContainerStatuses()).singleElement()
                .satisfies(status -> assertThat(status.getState().getTerminated().getExitCode()).isEqualTo(3));
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

    private static String phase(String name) {
        Pod pod = client.pods().withName(name).get();
        return pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase();
    }
}
