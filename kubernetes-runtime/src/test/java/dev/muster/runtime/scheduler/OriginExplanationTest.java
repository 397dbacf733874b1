package dev.muster.runtime.scheduler;

import static dev.muster.runtime.kubernetes.Manifests.node;
import static dev.muster.runtime.kubernetes.Manifests.pod;
import static dev.muster.runtime.scheduler.KubernetesSchedulerTest.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.engine.model.JobId;
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
 * A waiting PodGroup whose origin annotations name an Airflow DAG, run and task says so in its
 * Unschedulable condition and in the Events on it and its pending pods, after the session's reason.
 */
class OriginExplanationTest {
    private static final String POD_GROUP = "scheduling.volcano.sh/v1beta1 PodGroup";
    private static final String ORIGIN = "; for Airflow DAG etl_daily, run scheduled__2026-12-04T00:00:00+00:00, task transform[0-1]";
    private static final String FAN_OUT = """
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: PodGroup
            metadata:
              name: airflow-transform-7f3a
              namespace: default
              annotations:
                muster.dev/origin: Airflow
                muster.dev/origin-workflow: etl_daily
                muster.dev/origin-run: scheduled__2026-12-04T00:00:00+00:00
                muster.dev/origin-step: transform
                muster.dev/origin-step-indexes: 0-1
                muster.dev/origin-terms: DAG,run,task
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
    void aWaitingFanOutNamesItsDagRunAndTaskAfterWhatItWaitsFor() throws InterruptedException {
        // given: two pods of 3 cpu, and one node of 4
        ClusterObjects.create(client, node("n1", "4", "16Gi") + FAN_OUT
                + pod("transform-0", "airflow-transform-7f3a", "3") + pod("transform-1", "airflow-transform-7f3a", "3"));

        try (LiveScheduler scheduler = LiveScheduler.connect(client)) {
            // when
            CycleReport report = scheduler.runCycle();

            // then
            String reason = report.decisions().jobs().get(new JobId("default", "airflow-transform-7f3a")).reason().orElseThrow();
            assertThat(reason).startsWith("1/2 tasks of the gang fit").doesNotContain("etl_daily");
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                assertThat(condition(ClusterObjects.get(client, POD_GROUP, "default", "airflow-transform-7f3a"), "Unschedulable"))
                        .containsEntry("status", "True")
                        .containsEntry("reason", "NotEnoughResources")
                        .containsEntry("message", reason + ORIGIN);
                assertThat(events("airflow-transform-7f3a", "Unschedulable")).extracting(Event::getMessage)
                        .containsExactly(reason + ORIGIN);
                assertThat(events("transform-0", "FailedScheduling")).extracting(Event::getMessage)
                        .containsExactly("PodGroup default/airflow-transform-7f3a: " + reason + ORIGIN);
            });
        }
    }

    private List<Event> events(String name, String reason) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getName().equals(name) && event.getReason().equals(reason))
                .toList();
    }
}
