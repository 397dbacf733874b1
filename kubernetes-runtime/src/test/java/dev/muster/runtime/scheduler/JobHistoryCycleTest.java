package dev.muster.runtime.scheduler;

import static dev.muster.runtime.kubernetes.Manifests.gang;
import static dev.muster.runtime.kubernetes.Manifests.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.model.FinishedJob;
import dev.muster.engine.model.JobHistory;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.runtime.binding.BindResult;
import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.kubernetes.LiveScheduler;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The loop's sessions run on the job history the runtime keeps, so shortestfirst's {@code history} argument acts on a cluster. */
class JobHistoryCycleTest {
    private static final String HISTORY_BY_NAME_PREFIX = DefaultSchedulerConfig.text()
            .replace("  - name: shortestfirst\n", "  - name: shortestfirst\n    arguments:\n      history: name-prefix\n");
    private static final Instant FINISHED = Instant.parse("2026-12-08T00:00:00Z");

    private final TestingApiServer server = new TestingApiServer();
    private final KubernetesClient client = server.client();

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void aJobWhosePredecessorsRanShortGoesFirstWhenTheHistorySaysSo() throws InterruptedException {
        // given: room for one of two single-pod gangs; "long-2" comes first by name, but earlier "short" runs took 10 s, "long" ones an hour
        assertThat(HISTORY_BY_NAME_PREFIX).contains("history: name-prefix");
        ClusterObjects.create(client, node("n1", "2", "16Gi") + gang("long-2", 1, "default", "2") + gang("short-2", 1, "default", "2"));
        JobHistory history = new JobHistory(ImmutableList.of(finished("long-1", Duration.ofHours(1)), finished("short-1", Duration.ofSeconds(10))));

        try (LiveScheduler scheduler = LiveScheduler.connect(client, HISTORY_BY_NAME_PREFIX, cluster -> history)) {
            // when
            CycleReport report = scheduler.runCycle();

            // then: the session ran on that history, and bound the short one
            assertThat(report.cluster().history()).isEqualTo(history);
            assertThat(report.written().binds()).extracting(bind -> bind.task().name()).containsExactly("short-2-0");
            assertThat(report.written().binds()).extracting(BindResult::status).containsExactly(BindResult.Status.BOUND);
        }
    }

    private static FinishedJob finished(String name, Duration run) {
        return new FinishedJob(new JobId("default", name), new QueueName("default"), ImmutableMap.of(), Resources.of(2000, 0), FINISHED, run);
    }
}
