package dev.muster.engine.plugins.shortestfirst;

import static dev.muster.engine.testing.ClusterScenario.gpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.config.ConfigException;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.FinishedJob;
import dev.muster.engine.model.JobHistory;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Jobs without a duration estimate, expected to run as long as the similar jobs that finished before them.
 * One node of 8 GPUs; the jobs want it whole, so one of them runs.
 */
class ShortestFirstHistoryTest {
    private static final Resources NODE = gpu(64, 512, 8);
    private static final Resources POD = gpu(48, 448, 8);
    private static final Instant FINISHED = Instant.parse("2026-01-01T00:30:00Z");
    private static final String CONFIG = """
            actions: "allocate"
            tiers:
            - plugins:
              - name: gang
              - name: shortestfirst
                arguments: {%s}
              - name: predicates
            """;

    /** The first job, created first, was preceded by a 10-hour run of its kind; the second by a 10-minute one. */
    private static ClusterSnapshot trainThenEval(String queueOfHistory) {
        return ClusterScenario.builder()
                .node("n1", NODE)
                .job("ns/train-2", "default", 1, POD, 1)
                .job("ns/eval-2", "default", 1, POD, 1)
                .build()
                .withHistory(history(
                        finished("ns/train-1", queueOfHistory, POD, Duration.ofHours(10)),
                        finished("ns/eval-1", queueOfHistory, POD, Duration.ofMinutes(10))));
    }

    private static FinishedJob finished(String id, String queue, Resources requested, Duration run) {
        return new FinishedJob(JobId.parse(id), new QueueName(queue), ImmutableMap.of(), requested, FINISHED, run);
    }

    private static JobHistory history(FinishedJob... jobs) {
        return new JobHistory(ImmutableList.copyOf(jobs));
    }

    private static SessionResult run(String arguments, ClusterSnapshot snapshot) {
        return TestingScheduler.withConfig(CONFIG.formatted(arguments)).runOnce(snapshot);
    }

    @Test
    void aJobWhoseKindRanBrieflyGoesBeforeOneWhoseKindRanLong() {
        // when
        SessionResult result = run("history: name-prefix", trainThenEval("default"));

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "eval-2-0"));
    }

    @Test
    void withQueueAndGpusJobsOfTheSameQueueAndGpuCountAreSimilar() {
        // when: work 0.5 x 10h against 1.0 x 10m
        SessionResult result = run("history: queue+gpus", fourAndEightGpuJobs());

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "large-0"));
    }

    @Test
    void byDefaultNoHistoryIsReadAndCreationOrderDecides() {
        // when: the same history, shortestfirst's default arguments (no estimate without it)
        SessionResult result = run("starvation-threshold: 6h", fourAndEightGpuJobs());

        // then: the 4-GPU job, created first
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "small-0"));
    }

    /** In one queue, 4-GPU jobs ran 10h and 8-GPU jobs 10m; the 4-GPU job was created first, and only one fits. */
    private static ClusterSnapshot fourAndEightGpuJobs() {
        return ClusterScenario.builder()
                .node("n1", NODE)
                .job("ns/small", "default", 1, gpu(24, 224, 4), 1)
                .job("ns/large", "default", 1, POD, 1)
                .build()
                .withHistory(history(
                        finished("ns/done-4", "default", gpu(24, 224, 4), Duration.ofHours(10)),
                        finished("ns/done-8", "default", POD, Duration.ofMinutes(10)),
                        finished("ns/elsewhere", "other", gpu(24, 224, 4), Duration.ofMinutes(1))));
    }

    @Test
    void theMedianOfTheLastRunsOfTheKindCounts() {
        // given: the train jobs ran 10m long ago, then 10h three times; only the last three count
        ClusterSnapshot snapshot = trainThenEval("default").withHistory(history(
                finished("ns/train-11", "default", POD, Duration.ofMinutes(10)),
                finished("ns/train-12", "default", POD, Duration.ofMinutes(10)),
                finished("ns/train-13", "default", POD, Duration.ofHours(10)),
                finished("ns/train-14", "default", POD, Duration.ofHours(10)),
                finished("ns/train-15", "default", POD, Duration.ofMinutes(10)),
                finished("ns/eval-11", "default", POD, Duration.ofHours(1))));

        // when: train's last three: 10h, 10h, 10m, median 10h; eval 1h
        SessionResult result = run("history: name-prefix, history-runs: 3", snapshot);

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "eval-2-0"));
    }

    static Stream<Arguments> withoutUsableHistory() {
        ClusterSnapshot scenario = trainThenEval("default");
        return Stream.of(
                Arguments.of("an empty history", "history: name-prefix", scenario.withHistory(JobHistory.EMPTY)),
                Arguments.of("history turned off", "history: none", scenario),
                Arguments.of("only jobs of another key finished", "history: queue+name-prefix", trainThenEval("other")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("withoutUsableHistory")
    void withoutHistoryOfTheirKindCreationOrderDecidesAsBefore(String description, String arguments, ClusterSnapshot snapshot) {
        // when
        SessionResult result = run(arguments, snapshot);

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "train-2-0"));
    }

    @Test
    void anEstimateOnTheJobComesBeforeItsHistory() {
        // given: the train job says it runs one minute
        ClusterSnapshot history = trainThenEval("default");
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", NODE)
                .job("ns/train-2", "default", 1, POD, 1).annotation("ns/train-2", DurationEstimate.ANNOTATION, "1m")
                .job("ns/eval-2", "default", 1, POD, 1)
                .build()
                .withHistory(history.history());

        // when
        SessionResult result = run("history: name-prefix", snapshot);

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "train-2-0"));
    }

    static Stream<Arguments> badArguments() {
        return Stream.of(
                Arguments.of("an unknown key", "history: user", "history: unknown part 'user' in 'user'"),
                Arguments.of("an empty part", "history: queue+", "history: unknown part '' in 'queue+'"),
                Arguments.of("an annotation without a name", "history: 'annotation:'", "history: unknown part 'annotation:' in 'annotation:'"),
                Arguments.of("no runs", "history-runs: 0", "history-runs must be positive, got 0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badArguments")
    void aBadHistoryArgumentIsRefusedNamingItAndTheValue(String description, String arguments, String message) {
        // when / then
        assertThatThrownBy(() -> TestingScheduler.withConfig(CONFIG.formatted(arguments)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tiers[0].plugins[1].arguments").hasMessageContaining(message);
    }

    @Test
    void theNamePrefixDropsTheTrailingPartsAControllerNumbers() {
        assertThat(SimilarityKey.namePrefix("train-resnet-7f9c2")).isEqualTo("train-resnet");
        assertThat(SimilarityKey.namePrefix("train-resnet-1-0")).isEqualTo("train-resnet");
        assertThat(SimilarityKey.namePrefix("philly-1234")).isEqualTo("philly");
        assertThat(SimilarityKey.namePrefix("job42")).isEqualTo("job42");
    }
}
