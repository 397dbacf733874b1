package dev.muster.runtime.scheduler;

import static dev.muster.runtime.kubernetes.Manifests.node;
import static dev.muster.runtime.kubernetes.Manifests.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.kubernetes.LiveScheduler;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A malformed {@code muster.dev/duration-estimate} (read by {@code shortestfirst}) is ignored for
 * ordering: the gang is scheduled, and its PodGroup gets one Warning Event however many cycles run.
 */
class DurationEstimateWarningTest {
    private static final String CONFIG = """
            actions: "enqueue, allocate"
            tiers:
            - plugins:
              - name: gang
              - name: placeable
              - name: shortestfirst
              - name: predicates
            """;
    private static final String MALFORMED = """
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: PodGroup
            metadata:
              name: guess
              namespace: default
              annotations: {muster.dev/duration-estimate: "-2h"}
            spec: {minMember: 2, queue: default}
            ---
            """;

    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void aNegativeEstimateGetsOneWarningAndTheGangIsStillBound() throws InterruptedException {
        // given
        ClusterObjects.create(client, node("n1", "8", "32Gi") + MALFORMED + pod("guess-0", "guess", "1") + pod("guess-1", "guess", "1"));

        try (LiveScheduler scheduler = LiveScheduler.connect(client, CONFIG)) {
            // when
            CycleReport first = scheduler.runCycle();
            for (int cycle = 0; cycle < 4; cycle++) {
                scheduler.runCycle();
            }

            // then
            assertThat(first.written().bound()).isEqualTo(2);
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(ignoredHintEvents("guess"))
                    .singleElement()
                    .satisfies(event -> {
                        assertThat(event.getType()).isEqualTo("Warning");
                        assertThat(event.getInvolvedObject().getKind()).isEqualTo("PodGroup");
                        assertThat(event.getMessage()).isEqualTo("PodGroup default/guess: annotation muster.dev/duration-estimate"
                                + " '-2h' is not positive; ignored for ordering");
                    }));
        }
    }

    private List<Event> ignoredHintEvents(String name) {
        return client.v1().events().inAnyNamespace().list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getName().equals(name) && event.getReason().equals("IgnoredHint"))
                .toList();
    }
}
