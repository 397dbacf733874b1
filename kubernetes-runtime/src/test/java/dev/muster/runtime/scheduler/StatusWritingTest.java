package dev.muster.runtime.scheduler;

import static dev.muster.runtime.kubernetes.Manifests.gang;
import static dev.muster.runtime.kubernetes.Manifests.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.kubernetes.LiveScheduler;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** PodGroup and Queue status is written when it changes, and only then. */
class StatusWritingTest {
    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void statusIsWrittenOnlyWhenItChanges() throws InterruptedException {
        // given
        ClusterObjects.create(client, node("n1", "4", "16Gi") + gang("train", 2, "default", "1"));

        try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
            // when: cycles until the informer shows the binds and the written statuses
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
                scheduler.runCycle();
                return scheduler.reports().get(scheduler.reports().size() - 1).written().statuses() == 0
                        && scheduler.cache().bindsInFlight().isEmpty();
            });
            long written = server.requests("PATCH", "/podgroups/") + server.requests("PATCH", "/queues/");
            for (int cycle = 0; cycle < 5; cycle++) {
                scheduler.runCycle();
            }

            // then
            assertThat(written).isPositive();
            assertThat(server.requests("PATCH", "/podgroups/") + server.requests("PATCH", "/queues/")).isEqualTo(written);
            GenericKubernetesResource train = ClusterObjects.get(client, "scheduling.volcano.sh/v1beta1 PodGroup", "default", "train");
            assertThat(train.<Object>get("status", "phase")).isEqualTo("Running");
            assertThat(KubernetesSchedulerTest.condition(train, "Scheduled")).containsEntry("status", "True");
        }
    }
}
