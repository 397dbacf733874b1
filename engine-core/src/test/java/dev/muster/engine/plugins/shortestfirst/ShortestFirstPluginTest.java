package dev.muster.engine.plugins.shortestfirst;

import static dev.muster.engine.testing.ClusterScenario.gpu;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Job order by expected remaining work. One node of 8 GPUs; each job is one pod of 8 GPUs, so one job runs. */
class ShortestFirstPluginTest {
    private static final Resources NODE = gpu(64, 512, 8);
    private static final Resources POD = gpu(48, 448, 8);
    private static final String CONFIG = """
            actions: "allocate"
            tiers:
            - plugins:
              - name: gang
              - name: shortestfirst
                arguments: {starvation-threshold: %s}
              - name: predicates
            """;

    private static ClusterScenario.Builder twoJobs(String firstEstimate, String secondEstimate) {
        ClusterScenario.Builder builder = ClusterScenario.builder()
                .node("n1", NODE)
                .job("ns/first", "default", 1, POD, 1)
                .job("ns/second", "default", 1, POD, 1);
        if (!firstEstimate.isEmpty()) {
            builder.annotation("ns/first", DurationEstimate.ANNOTATION, firstEstimate);
        }
        if (!secondEstimate.isEmpty()) {
            builder.annotation("ns/second", DurationEstimate.ANNOTATION, secondEstimate);
        }
        return builder;
    }

    private static SessionResult run(ClusterSnapshot snapshot) {
        return TestingScheduler.withConfig(CONFIG.formatted("6h")).runOnce(snapshot);
    }

    @Test
    void theJobExpectedToFinishSoonerGoesFirst() {
        // when: the first job, created earlier, is expected to run 10 hours, the second 10 minutes
        SessionResult result = run(twoJobs("10h", "600").build());

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "second-0"));
    }

    @Test
    void withoutEstimatesCreationOrderDecides() {
        // when
        SessionResult result = run(twoJobs("", "").build());

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "first-0"));
    }

    @Test
    void aJobWithoutAnEstimateIsTakenAsLongAsItsQueuesMedian() {
        // given: two other jobs of the queue, too big for the node, expected at 1h and 3h: median 2h
        ClusterSnapshot snapshot = twoJobs("", "3h")
                .job("ns/big1", "default", 2, POD, 2).annotation("ns/big1", DurationEstimate.ANNOTATION, "1h")
                .job("ns/big2", "default", 2, POD, 2).annotation("ns/big2", DurationEstimate.ANNOTATION, "3h")
                .build();

        // when
        SessionResult result = run(snapshot);

        // then: first counts as 2h, second 3h
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "first-0"));
    }

    @Test
    void aJobWaitingPastTheThresholdGoesAheadOfShorterOnes() {
        // given: both jobs waited about an hour (the scenario creates them at midnight, the clock says 1:00)
        ClusterSnapshot snapshot = twoJobs("10h", "10m").build();

        // when
        SessionResult result = TestingScheduler.withConfig(CONFIG.formatted("30m")).runOnce(snapshot);

        // then: both are starving, so the older goes first whatever it expects
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "first-0"));
    }

    static Stream<Arguments> badEstimates() {
        return Stream.of(
                Arguments.of("a negative duration", "-5m", "'-5m' is not positive; ignored for ordering"),
                Arguments.of("zero", "0s", "'0s' is not positive; ignored for ordering"),
                Arguments.of("not a duration", "soon", "'soon' is not a duration"),
                Arguments.of("a unit Go does not know", "3d", "'3d' is not a duration"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badEstimates")
    void aBadEstimateIsIgnoredWithOneWarningAndTheCycleGoesOn(String description, String estimate, String warning) {
        // given: the first job's estimate is bad; the second's says 10h
        ClusterSnapshot snapshot = twoJobs(estimate, "10h").build();

        // when
        SessionResult result = run(snapshot);

        // then: the first counts as the median (10h), so creation order decides, and it carries one warning
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "first-0"));
        assertThat(result.jobs().get(JobId.parse("ns/first")).warnings()).singleElement().asString()
                .startsWith("PodGroup ns/first: annotation muster.dev/duration-estimate ").contains(warning);
        assertThat(result.jobs().get(JobId.parse("ns/second")).warnings()).isEmpty();
    }

    @Test
    void workIsTheExpectedTimeTimesTheGangsShareOfTheCluster() {
        // given
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", NODE).node("n2", NODE)
                .job("ns/wide-short", "default", 2, POD, 2).annotation("ns/wide-short", DurationEstimate.ANNOTATION, "1h")
                .job("ns/narrow-long", "default", 1, POD, 1).annotation("ns/narrow-long", DurationEstimate.ANNOTATION, "3h")
                .build();

        // when: 2 pods × 1h (work 1.0 × 1h) against 1 pod × 3h (0.5 × 3h): the wide, short gang first
        SessionResult result = run(snapshot);

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "wide-short-0"), new TaskId("ns", "wide-short-1"));
    }
}
