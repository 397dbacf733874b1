package dev.muster.engine.plugins.executorreservation;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static dev.muster.engine.testing.ClusterScenario.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.engine.config.ConfigException;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.framework.ConfiguredPlugin;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A Spark application {@code spark/app} whose driver (1 cpu) runs on n1 and which expects 3 executors
 * of 2 cpu (minResources cpu 7, as Muster's Spark step computes it), next to other jobs.
 */
class ExecutorReservationPluginTest {
    private static final Instant NOW = TestingScheduler.CLOCK.instant();
    private static final JobId APP = JobId.parse("spark/app");
    private static final String RESERVATION = """
            actions: "enqueue, allocate, backfill"
            tiers:
            - plugins:
              - name: priority
              - name: gang
              - name: executorreservation
                arguments: {hold-timeout: 5m}
            - plugins:
              - name: predicates
              - name: proportion
              - name: nodeorder
              - name: binpack
            """;
    private static final String VOLCANO = """
            actions: "enqueue, allocate, backfill"
            tiers:
            - plugins:
              - name: priority
              - name: gang
            - plugins:
              - name: predicates
              - name: proportion
              - name: nodeorder
              - name: binpack
            """;

    /**
     * The application with its driver started {@code driverAge} ago and {@code executorPods} executor pods pending, created 10
     * seconds ago.
     */
    private static ClusterScenario.Builder application(ClusterScenario.Builder builder, String queue, Duration driverAge, int executorPods,
            int gang) {
        return application(builder, queue, driverAge, executorPods, gang, Duration.ofSeconds(10));
    }

    private static ClusterScenario.Builder application(ClusterScenario.Builder builder, String queue, Duration driverAge, int executorPods,
            int gang, Duration executorAge) {
        builder.job(APP.toString(), queue, 1, cpu(2), 0, PodGroupPhase.RUNNING, 0)
                .minResources(APP.toString(), cpu(7))
                .annotation(APP.toString(), SparkApplication.EXPECTED_EXECUTORS, "3")
                .annotation(APP.toString(), SparkApplication.GANG_EXECUTORS, Integer.toString(gang))
                .pod(pod(APP.toString(), "app-driver").request(cpu(1)).runningOn("n1").startedAt(NOW.minus(driverAge))
                        .label(SparkApplication.ROLE_LABEL, SparkApplication.DRIVER));
        for (int i = 1; i <= executorPods; i++) {
            builder.pod(pod(APP.toString(), "app-exec-" + i).request(cpu(2)).createdAt(NOW.minus(executorAge)).label(SparkApplication.ROLE_LABEL, SparkApplication.EXECUTOR));
        }
        return builder;
    }

    private static SessionResult run(String config, ClusterSnapshot snapshot) {
        return TestingScheduler.withConfig(config).runOnce(snapshot);
    }

    @Test
    void theRoomOfExecutorsNotYetCreatedIsNotGivenToAnotherJob() {
        // given: n1 has 7 cpu free, just the room of the 3 executors Spark has not created yet
        ClusterSnapshot snapshot = application(ClusterScenario.builder().node("n1", cpu(8)), "default", Duration.ofMinutes(1), 0, 0)
                .job("batch/other", "default", 1, cpu(2), 1)
                .build();

        // when
        SessionResult held = run(RESERVATION, snapshot);
        SessionResult volcano = run(VOLCANO, snapshot);

        // then
        assertThat(held.binds()).isEmpty();
        assertThat(held.jobs().get(JobId.parse("batch/other")).reason()).hasValueSatisfying(reason -> assertThat(reason)
                .contains("held for the executors of spark/app"));
        assertThat(held.jobs().get(APP).reservation()).hasValueSatisfying(text -> assertThat(text)
                .contains("executor room held: 3 of 3 missing executors").contains("n1×3"));
        assertThat(volcano.binds()).containsOnlyKeys(new TaskId("batch", "other-0"));
    }

    @Test
    void roomBeyondTheHoldStaysFreeForOthers() {
        // given: n2 holds nothing
        ClusterSnapshot snapshot = application(ClusterScenario.builder().node("n1", cpu(8)).node("n2", cpu(4)), "default",
                Duration.ofMinutes(1), 0, 0)
                .job("batch/other", "default", 1, cpu(2), 1)
                .build();

        // when
        SessionResult result = run(RESERVATION, snapshot);

        // then
        assertThat(result.binds()).containsExactly(Map.entry(new TaskId("batch", "other-0"), new NodeName("n2")));
    }

    @Test
    void theHoldIsReleasedWhenTheTimeoutHasPassedAndAWarningSaysSo() {
        // given: the driver started 6 minutes ago, the timeout is 5
        ClusterSnapshot snapshot = application(ClusterScenario.builder().node("n1", cpu(8)), "default", Duration.ofMinutes(6), 0, 0)
                .job("batch/other", "default", 1, cpu(2), 1)
                .build();

        // when
        SessionResult result = run(RESERVATION, snapshot);

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("batch", "other-0"));
        assertThat(result.jobs().get(APP).warnings()).singleElement().asString()
                .startsWith("executor reservation released: 3 executors were expected by 2026-01-01T00:59:00Z");
        assertThat(result.jobs().get(APP).reservation()).isEmpty();
    }

    @Test
    void theApplicationsOwnExecutorsGoIntoTheHeldRoomAsAGang() {
        // given: Spark has created the 3 executors; another job asks for the same room
        ClusterSnapshot snapshot = application(ClusterScenario.builder().node("n1", cpu(8)), "default", Duration.ofMinutes(1), 3, 3)
                .job("batch/other", "default", 1, cpu(2), 1)
                .build();

        // when
        SessionResult result = run(RESERVATION, snapshot);

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("spark", "app-exec-1"), new TaskId("spark", "app-exec-2"),
                new TaskId("spark", "app-exec-3"));
        assertThat(result.jobs().get(APP).reservation()).isEmpty();
    }

    @Test
    void theFirstExecutorsAreNotPlacedUntilAllOfTheGangFit() {
        // given: only 2 of the gang of 3 fit next to the driver
        ClusterSnapshot snapshot = application(ClusterScenario.builder().node("n1", cpu(5)), "default", Duration.ofMinutes(1), 3, 3).build();
        ClusterSnapshot noGang = application(ClusterScenario.builder().node("n1", cpu(5)), "default", Duration.ofMinutes(1), 3, 0).build();

        // when
        SessionResult gang = run(RESERVATION, snapshot);
        SessionResult single = run(RESERVATION, noGang);

        // then
        assertThat(gang.binds()).isEmpty();
        assertThat(gang.jobs().get(APP).reservation()).hasValueSatisfying(text -> assertThat(text)
                .contains("2 of 3 missing executors").contains("1 wait for room to free").contains("the first 3 executors are placed together"));
        assertThat(single.binds()).hasSize(2);
    }

    @Test
    void pastTheGangWaitTheExecutorsThatFitArePlacedIntoTheHeldRoom() {
        // given: only 2 of the gang of 3 fit next to the driver, and Spark created the executors 31 s ago (the gang wait is 30 s)
        ClusterSnapshot snapshot = application(ClusterScenario.builder().node("n1", cpu(5)), "default", Duration.ofMinutes(1), 3, 3,
                Duration.ofSeconds(31))
                .job("batch/other", "default", 1, cpu(2), 1)
                .build();

        // when
        SessionResult result = run(RESERVATION, snapshot);

        // then: Spark runs tasks on what it has after that long, so the held room goes to two of them, and still to no other job
        assertThat(result.binds()).hasSize(2).allSatisfy((task, node) -> assertThat(task.name()).startsWith("app-exec-"));
        assertThat(result.jobs().get(APP).reservation()).hasValueSatisfying(text -> assertThat(text)
                .contains("0 of 1 missing executors").doesNotContain("placed together"));
    }

    @Test
    void withinTheGangWaitTheReservationSaysUntilWhenTheGangIsPlacedTogether() {
        // given: the executors were created 10 s ago
        ClusterSnapshot snapshot = application(ClusterScenario.builder().node("n1", cpu(5)), "default", Duration.ofMinutes(1), 3, 3).build();

        // when
        SessionResult result = run(RESERVATION, snapshot);

        // then
        assertThat(result.binds()).isEmpty();
        assertThat(result.jobs().get(APP).reservation()).hasValueSatisfying(text -> assertThat(text)
                .contains("the first 3 executors are placed together until 2026-01-01T01:00:20Z"));
    }

    @Test
    void aGangWaitThatIsNotPositiveIsRefusedNamingTheArgument() {
        // when / then
        assertThatThrownBy(() -> TestingScheduler.withConfig(RESERVATION.replace("{hold-timeout: 5m}", "{hold-timeout: 5m, gang-wait: 0s}")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tiers[0].plugins[2].arguments").hasMessageContaining("gang-wait must be positive, got '0s'");
    }

    @Test
    void theGangWaitsUntilSparkHasCreatedAllOfIt() {
        // given: Spark created 2 executors of the gang of 3 so far
        ClusterSnapshot snapshot = application(ClusterScenario.builder().node("n1", cpu(8)), "default", Duration.ofMinutes(1), 2, 3).build();

        // when
        SessionResult result = run(RESERVATION, snapshot);

        // then
        assertThat(result.binds()).isEmpty();
        assertThat(result.jobs().get(APP).ready()).isTrue();
    }

    @Test
    void theQueueCountsHeldRoomAsTheApplications() {
        // given: queue a may use 8 cpu; the driver uses 1 and the application holds 6 for its executors, all on n1
        ClusterSnapshot snapshot = application(ClusterScenario.builder().node("n1", cpu(8)).node("n2", cpu(8))
                .queue("a", 1, Optional.of(cpu(8))), "a",
                Duration.ofMinutes(1), 0, 0)
                .job("batch/other", "a", 1, cpu(4), 1)
                .build();

        // when
        SessionResult held = run(RESERVATION, snapshot);
        SessionResult volcano = run(VOLCANO, snapshot);

        // then: n2 is free of holds, but the queue is not
        assertThat(held.binds()).isEmpty();
        assertThat(held.jobs().get(JobId.parse("batch/other")).reason()).hasValueSatisfying(reason -> assertThat(reason)
                .contains("queue a would go over its capability counting cpu 6, memory 0 held for its Spark applications' executors"));
        assertThat(volcano.binds()).containsOnlyKeys(new TaskId("batch", "other-0"));
    }

    @Test
    void aMalformedExecutorCountIsIgnoredWithAWarning() {
        // given
        ClusterSnapshot snapshot = application(ClusterScenario.builder().node("n1", cpu(8)), "default", Duration.ofMinutes(1), 0, 0)
                .annotation(APP.toString(), SparkApplication.EXPECTED_EXECUTORS, "-2")
                .job("batch/other", "default", 1, cpu(2), 1)
                .build();

        // when
        SessionResult result = run(RESERVATION, snapshot);

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("batch", "other-0"));
        assertThat(result.jobs().get(APP).warnings()).containsExactly("PodGroup spark/app: annotation muster.dev/spark-expected-executors"
                + " '-2' is not a whole number of executors (0 or more); no executor reservation");
    }

    @Test
    void volcanosConfigurationDoesNotHoldExecutorRoom() {
        // when
        SessionConfig volcano = TestingScheduler.loader().parse(DefaultSchedulerConfig.VOLCANO_SOURCE, DefaultSchedulerConfig.volcanoText());

        // then
        assertThat(volcano.tiers()).allSatisfy(tier -> assertThat(tier).extracting(ConfiguredPlugin::name)
                .doesNotContain(ExecutorReservationPlugin.NAME));
    }

    @Test
    void aHoldTimeoutThatIsNotPositiveIsRefusedNamingTheArgument() {
        // when / then
        assertThatThrownBy(() -> TestingScheduler.withConfig(RESERVATION.replace("5m", "0s")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tiers[0].plugins[2].arguments").hasMessageContaining("hold-timeout must be positive, got '0s'");
    }
}
