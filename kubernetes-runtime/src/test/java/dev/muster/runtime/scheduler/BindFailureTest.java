package dev.muster.runtime.scheduler;

import static dev.muster.runtime.kubernetes.Manifests.gang;
import static dev.muster.runtime.kubernetes.Manifests.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.runtime.binding.BindResult;
import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.kubernetes.LiveScheduler;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What happens to a gang when binds fail, and to binds when the scheduler restarts. */
class BindFailureTest {
    private static final List<String> GANG = List.of("train-0", "train-1", "train-2");

    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void aGangWhoseBindFailsKeepsItsBoundPodsAndGetsTheRestNextCycle() throws InterruptedException {
        // given: every try of one member's bind answers 503
        ClusterObjects.create(client, node("n1", "8", "32Gi") + gang("train", 3, "default", "2"));
        server.failBindings("default/train-1", 503, 3);

        try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
            // when
            CycleReport first = scheduler.runCycle();

            // then: two members are bound, the third is pending again, and nothing else holds its place
            assertThat(first.written().binds()).extracting(BindResult::status)
                    .containsExactlyInAnyOrder(BindResult.Status.BOUND, BindResult.Status.FAILED, BindResult.Status.BOUND);
            assertThat(boundPods()).containsExactlyInAnyOrder("train-0", "train-2");
            assertThat(scheduler.cache().bindsInFlight()).doesNotContainKey(dev.muster.engine.model.TaskId.parse("default/train-1"));
            await().atMost(Duration.ofSeconds(5)).until(() -> scheduler.cache().bindsInFlight().isEmpty());

            // when
            CycleReport second = scheduler.runCycle();

            // then: the gang plugin counts the bound two; only the missing member is bound
            assertThat(second.written().binds()).singleElement()
                    .satisfies(bind -> assertThat(bind.task().name()).isEqualTo("train-1"))
                    .satisfies(bind -> assertThat(bind.status()).isEqualTo(BindResult.Status.BOUND));
            assertThat(boundPods()).containsExactlyInAnyOrderElementsOf(GANG);
        }
    }

    @Test
    void aConflictOnBindIsSurvivedAndThePodIsBoundOnce() throws InterruptedException {
        // given: the first bind of one member answers 409, as if a stale pod had been replaced
        ClusterObjects.create(client, node("n1", "8", "32Gi") + gang("train", 3, "default", "2"));
        server.failBindings("default/train-0", 409, 1);

        try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
            // when
            CycleReport first = scheduler.runCycle();
            await().atMost(Duration.ofSeconds(5)).until(() -> scheduler.cache().bindsInFlight().isEmpty());
            scheduler.runCycle();

            // then
            assertThat(first.written().binds()).extracting(BindResult::status).contains(BindResult.Status.CONFLICT);
            assertThat(boundPods()).containsExactlyInAnyOrderElementsOf(GANG);
            GANG.forEach(pod -> assertThat(server.bindingRequests("default/" + pod)).as(pod).isEqualTo(1));
        }
    }

    @Test
    void aSchedulerRestartedMidFlightBindsNothingTwice() throws InterruptedException {
        // given: a scheduler that bound part of a gang (the last member's binds timed out) and then died
        ClusterObjects.create(client, node("n1", "8", "32Gi") + node("n2", "8", "32Gi")
                + gang("train", 3, "default", "2") + gang("eval", 2, "default", "2"));
        server.failBindings("default/train-2", 504, 3);
        LiveScheduler first = LiveScheduler.connect(server.newClient());
        first.runCycle();
        first.close();
        assertThat(boundPods()).contains("train-0", "train-1", "eval-0", "eval-1").doesNotContain("train-2");

        // when: a new scheduler, with a new cache, starts its loop
        try (LiveScheduler second = LiveScheduler.connect(server.newClient())) {
            second.scheduler().start();

            // then
            await().atMost(Duration.ofSeconds(10)).until(() -> boundPods().size() == 5);
            second.scheduler().stop();
        }
        for (String pod : List.of("train-0", "train-1", "train-2", "eval-0", "eval-1")) {
            assertThat(server.bindingRequests("default/" + pod)).as(pod).isEqualTo(1);
        }
    }

    private List<String> boundPods() {
        return client.pods().inNamespace("default").list().getItems().stream()
                .filter(pod -> pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty())
                .map(Pod::getMetadata)
                .map(metadata -> metadata.getName())
                .toList();
    }
}
