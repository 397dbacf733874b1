package dev.muster.engine.plugins.sla;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.engine.api.GoDuration;
import dev.muster.engine.config.ConfigException;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.framework.Vote;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The testing clock reads one hour after the scenario's first creation time. */
class SlaPluginTest {
    private static String config(String waitingTime) {
        return """
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: sla
                    arguments:
                      sla-waiting-time: %s
                - plugins:
                  - name: overcommit
                """.formatted(waitingTime);
    }

    /** A job whose 20-cpu minimum overcommit rejects on a 10-cpu cluster. */
    private static ClusterScenario.Builder tooLargeJob() {
        return ClusterScenario.builder()
                .node("n1", cpu(10))
                .job("ns/big", "default", 1, cpu(20), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/big", cpu(20));
    }

    @Test
    void jobThatWaitedLongerThanItsSlaIsAdmittedBeforeALaterTierRejectsIt() {
        SessionResult result = TestingScheduler.withConfig(config("30m")).runOnce(tooLargeJob().build());

        assertThat(result.jobs().get(JobId.parse("ns/big")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
    }

    @Test
    void jobWithinItsSlaIsLeftToTheOtherPlugins() {
        SessionResult result = TestingScheduler.withConfig(config("2h")).runOnce(tooLargeJob().build());

        assertThat(result.jobs().get(JobId.parse("ns/big")).phase()).isEqualTo(PodGroupPhase.PENDING);
    }

    @Test
    void annotationOverridesTheGlobalWaitingTime() {
        ClusterSnapshot snapshot = tooLargeJob().annotation("ns/big", "volcano.sh/sla-waiting-time", "10m").build();

        SessionResult result = TestingScheduler.withConfig(config("2h")).runOnce(snapshot);

        assertThat(result.jobs().get(JobId.parse("ns/big")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
    }

    @Test
    void unreadableAnnotationFallsBackToTheLegacyAnnotationAndThenTheGlobalTime() {
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .job("ns/legacy", "default", 1, cpu(1), 1)
                .annotation("ns/legacy", "volcano.sh/sla-waiting-time", "soon")
                .annotation("ns/legacy", "sla-waiting-time", "10m")
                .job("ns/global", "default", 1, cpu(1), 1)
                .annotation("ns/global", "volcano.sh/sla-waiting-time", "-5m")
                .build();
        Session session = open(snapshot, "2h");
        SlaPlugin plugin = session.plugins().all(SlaPlugin.class).get(0);

        assertThat(plugin.isEnqueueable(job(session, "ns/legacy"))).isEqualTo(Vote.PERMIT);
        assertThat(plugin.isPipelined(job(session, "ns/global"))).isEqualTo(Vote.ABSTAIN);
    }

    @Test
    void jobsWithAnSlaGoFirstEarliestDeadlineFirst() {
        // given: created in this order, one minute apart
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .job("ns/none", "default", 1, cpu(1), 1)
                .job("ns/late", "default", 1, cpu(1), 1)
                .annotation("ns/late", "sla-waiting-time", "1h")
                .job("ns/soon", "default", 1, cpu(1), 1)
                .annotation("ns/soon", "sla-waiting-time", "5m")
                .build();
        Session session = open(snapshot, "");
        SlaPlugin plugin = session.plugins().all(SlaPlugin.class).get(0);

        // then
        assertThat(plugin.compareJobs(job(session, "ns/soon"), job(session, "ns/late"))).isNegative();
        assertThat(plugin.compareJobs(job(session, "ns/late"), job(session, "ns/none"))).isNegative();
        assertThat(plugin.compareJobs(job(session, "ns/none"), job(session, "ns/none"))).isZero();
    }

    static Stream<Arguments> durations() {
        return Stream.of(
                Arguments.of("3m", Duration.ofMinutes(3)),
                Arguments.of("1h2m3s", Duration.ofSeconds(3723)),
                Arguments.of("1.5h", Duration.ofMinutes(90)),
                Arguments.of("300ms", Duration.ofMillis(300)),
                Arguments.of("1h2m3s4ms5µs6ns", Duration.ofSeconds(3723).plusNanos(4_005_006)),
                Arguments.of("0", Duration.ZERO),
                Arguments.of("-2m", Duration.ofMinutes(-2)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("durations")
    void waitingTimesAreGoDurations(String text, Duration expected) {
        assertThat(GoDuration.parse(text)).isEqualTo(expected);
    }

    @Test
    void argumentsDefaultToNoGlobalWaitingTime() {
        SessionConfig config = TestingScheduler.loader().parse("test.conf", """
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: sla
                """);

        assertThat(config.tiers().get(0).get(0).args()).isEqualTo(SlaArgs.DEFAULTS);
        assertThat(SlaArgs.DEFAULTS.globalWaitingTime()).isEmpty();
        assertThat(new SlaArgs("1h2m").globalWaitingTime()).isEqualTo(Optional.of(Duration.ofMinutes(62)));
    }

    @Test
    void waitingTimeThatIsNotADurationIsAConfigurationError() {
        assertThatThrownBy(() -> TestingScheduler.loader().parse("test.conf", config("soon")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tiers[0].plugins[0].arguments")
                .hasMessageContaining("'soon' is not a duration");
    }

    private static Session open(ClusterSnapshot snapshot, String waitingTime) {
        String config = waitingTime.isEmpty() ? """
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: sla
                """ : config(waitingTime);
        return Session.open(snapshot, TestingScheduler.loader().parse("test.conf", config), TestingScheduler.CLOCK);
    }

    private static JobState job(Session session, String id) {
        return session.job(JobId.parse(id)).orElseThrow();
    }
}
