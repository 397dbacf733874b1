package dev.muster.engine.plugins.shortestfirst;

import static dev.muster.engine.testing.ClusterScenario.gpu;
import static dev.muster.engine.testing.ClusterScenario.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A gang waiting past the threshold holds the nodes that free soonest; only jobs expected to end before
 * then may use them. n1 is full for 9 more hours; n2 runs a 2-GPU pod that ends in an hour; a gang of one
 * 8-GPU pod has waited 3 hours; two 2-GPU jobs arrive, expected to run 30 minutes and 5 hours.
 */
class ReservationTest {
    private static final Resources NODE = gpu(64, 512, 8);
    private static final Resources WHOLE = gpu(48, 448, 8);
    private static final Resources SMALL = gpu(12, 112, 2);
    private static final Instant NOW = TestingScheduler.CLOCK.instant();
    private static final String CONFIG = """
            actions: "allocate"
            tiers:
            - plugins:
              - name: gang
              - name: shortestfirst
                arguments: {starvation-threshold: %s}
              - name: predicates
            """;

    private static ClusterSnapshot cluster() {
        return ClusterScenario.builder()
                .node("n1", NODE).node("n2", NODE)
                .job("ns/long-run", "default", 1, WHOLE, 0, PodGroupPhase.RUNNING, 0)
                .annotation("ns/long-run", DurationEstimate.ANNOTATION, "10h")
                .pod(pod("ns/long-run", "long-run-0").request(WHOLE).runningOn("n1").startedAt(NOW.minus(Duration.ofHours(1))))
                .job("ns/short-run", "default", 1, SMALL, 0, PodGroupPhase.RUNNING, 0)
                .annotation("ns/short-run", DurationEstimate.ANNOTATION, "2h")
                .pod(pod("ns/short-run", "short-run-0").request(SMALL).runningOn("n2").startedAt(NOW.minus(Duration.ofHours(1))))
                .job("ns/wide", "default", 1, WHOLE, 1)
                .annotation("ns/wide", DurationEstimate.ANNOTATION, "1h")
                .createdAt("ns/wide", NOW.minus(Duration.ofHours(3)))
                .job("ns/fill-long", "default", 1, SMALL, 1)
                .annotation("ns/fill-long", DurationEstimate.ANNOTATION, "5h")
                .createdAt("ns/fill-long", NOW.minus(Duration.ofMinutes(10)))
                .job("ns/fill-short", "default", 1, SMALL, 1)
                .annotation("ns/fill-short", DurationEstimate.ANNOTATION, "30m")
                .createdAt("ns/fill-short", NOW.minus(Duration.ofMinutes(5)))
                .build();
    }

    @Test
    void onlyAJobThatEndsBeforeTheReservationIsDueMayUseTheHeldNode() {
        // when
        SessionResult result = TestingScheduler.withConfig(CONFIG.formatted("2h")).runOnce(cluster());

        // then
        assertThat(result.binds()).containsExactlyEntriesOf(Map.of(new TaskId("ns", "fill-short-0"), new NodeName("n2")));
        assertThat(result.jobs().get(JobId.parse("ns/fill-long")).reason()).hasValueSatisfying(reason -> assertThat(reason)
                .contains("node n2 is held for ns/wide, waiting since 2025-12-31T22:00:00Z, until 2026-01-01T02:00:00Z"));
    }

    @Test
    void withoutAgingTheSmallJobsFillTheNodeTheWideGangWaitsFor() {
        // when
        SessionResult result = TestingScheduler.withConfig(CONFIG.formatted("0s")).runOnce(cluster());

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "fill-short-0"), new TaskId("ns", "fill-long-0"));
    }
}
