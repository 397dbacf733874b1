package dev.muster.engine.plugins.dag;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import org.junit.jupiter.api.Test;

class DagPluginTest {
    private static final TestingScheduler SCHEDULER = TestingScheduler.withConfig("""
            actions: "enqueue, allocate"
            tiers:
            - plugins:
              - name: dag
              - name: gang
            """);
    private static final TestingScheduler WITH_PRIORITY = TestingScheduler.withConfig("""
            actions: "enqueue, allocate"
            tiers:
            - plugins:
              - name: priority
              - name: gang
              - name: dag
            """);

    @Test
    void jobWaitingForItsParentsStaysOutOfItsQueueAndSaysWhy() {
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(8))
                .job("ml/evaluate", "default", 1, cpu(1), 1, PodGroupPhase.PENDING, 0)
                .minResources("ml/evaluate", cpu(1))
                .annotation("ml/evaluate", DagAnnotations.DAG, "ml/mnist")
                .annotation("ml/evaluate", DagAnnotations.WAITING_ON, "train, tune")
                .job("ml/prepare", "default", 1, cpu(1), 1, PodGroupPhase.PENDING, 0)
                .minResources("ml/prepare", cpu(1))
                .annotation("ml/prepare", DagAnnotations.DAG, "ml/mnist")
                .build();

        SessionResult result = SCHEDULER.runOnce(snapshot);

        SessionResult.JobOutcome waiting = result.jobs().get(JobId.parse("ml/evaluate"));
        assertThat(waiting.phase()).isEqualTo(PodGroupPhase.PENDING);
        assertThat(waiting.reason()).contains("waits for train, tune of DAG ml/mnist to finish");
        assertThat(result.jobs().get(JobId.parse("ml/prepare")).phase()).isNotEqualTo(PodGroupPhase.PENDING);
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ml", "prepare-0"));
    }

    @Test
    void admittedJobStillWaitingForItsParentsGetsNoPods() {
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(8))
                .job("ml/evaluate", "default", 1, cpu(1), 1)
                .annotation("ml/evaluate", DagAnnotations.WAITING_ON, "train")
                .build();

        SessionResult result = SCHEDULER.runOnce(snapshot);

        assertThat(result.binds()).isEmpty();
        assertThat(result.jobs().get(JobId.parse("ml/evaluate")).reason()).contains("waits for train to finish");
    }

    @Test
    void withinOneDagTheLongestRemainingCriticalPathGoesFirst() {
        // given: room for one job; the short side stage of the same DAG was created first
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("ml/side-report", "default", 1, cpu(2), 1)
                .annotation("ml/side-report", DagAnnotations.DAG, "ml/mnist")
                .annotation("ml/side-report", DagAnnotations.REMAINING_PATH, "600")
                .job("ml/train", "default", 1, cpu(2), 1)
                .annotation("ml/train", DagAnnotations.DAG, "ml/mnist")
                .annotation("ml/train", DagAnnotations.REMAINING_PATH, "8700")
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(snapshot);

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ml", "train-0"));
    }

    @Test
    void acrossDagsTheDagExpectedToFinishSoonestGoesFirst() {
        // given: room for one job; a stage of a long pipeline was created before a short pipeline's only stage
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("etl/train", "default", 1, cpu(2), 1)
                .annotation("etl/train", DagAnnotations.DAG, "etl/nightly")
                .annotation("etl/train", DagAnnotations.REMAINING_PATH, "8700")
                .job("ml/report", "default", 1, cpu(2), 1)
                .annotation("ml/report", DagAnnotations.DAG, "ml/report")
                .annotation("ml/report", DagAnnotations.REMAINING_PATH, "600")
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(snapshot);

        // then: the short pipeline ends 600 s from now rather than 9,300 s; the long one ends 600 s later
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ml", "report-0"));
    }

    @Test
    void acrossDagsLongestPathPutsTheLongestRemainingPathFirstWhateverItsDag() {
        TestingScheduler longestPath = TestingScheduler.withConfig("""
                actions: "enqueue, allocate"
                tiers:
                - plugins:
                  - name: dag
                    arguments: {across-dags: longest-path}
                  - name: gang
                """);
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("ml/report", "default", 1, cpu(2), 1)
                .annotation("ml/report", DagAnnotations.DAG, "ml/report")
                .annotation("ml/report", DagAnnotations.REMAINING_PATH, "600")
                .job("etl/train", "default", 1, cpu(2), 1)
                .annotation("etl/train", DagAnnotations.DAG, "etl/nightly")
                .annotation("etl/train", DagAnnotations.REMAINING_PATH, "8700")
                .build();

        // then: the long pipeline's stage, created last, goes first; by default the short pipeline's would
        assertThat(longestPath.runOnce(snapshot).binds()).containsOnlyKeys(new TaskId("etl", "train-0"));
        assertThat(SCHEDULER.runOnce(snapshot).binds()).containsOnlyKeys(new TaskId("ml", "report-0"));
    }

    @Test
    void aDagIsAsLongAsItsLongestRemainingStageNotTheStageAtHand() {
        // given: room for one job on n1; nightly's short stage is ready while its long stage runs on n2
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(2))
                .node("n2", cpu(2))
                .job("etl/train", "default", 1, cpu(2), 0)
                .annotation("etl/train", DagAnnotations.DAG, "etl/nightly")
                .annotation("etl/train", DagAnnotations.REMAINING_PATH, "5000")
                .running("etl/train", "train-0", cpu(2), "n2")
                .job("etl/clean", "default", 1, cpu(2), 1)
                .annotation("etl/clean", DagAnnotations.DAG, "etl/nightly")
                .annotation("etl/clean", DagAnnotations.REMAINING_PATH, "300")
                .job("ml/report", "default", 1, cpu(2), 1)
                .annotation("ml/report", DagAnnotations.DAG, "ml/report")
                .annotation("ml/report", DagAnnotations.REMAINING_PATH, "1000")
                .build();

        SessionResult result = SCHEDULER.runOnce(snapshot);

        // then: nightly ends in 5,000 s whatever goes first, report in 1,000 s if it goes now
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ml", "report-0"));
    }

    @Test
    void whatAStartedGangHasRunCountsAgainstItsDagsRemainingTime() {
        // given: as above, but nightly's long stage started 4,500 s ago, so nightly has about 500 s left
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(2))
                .node("n2", cpu(2))
                .job("etl/train", "default", 1, cpu(2), 0)
                .annotation("etl/train", DagAnnotations.DAG, "etl/nightly")
                .annotation("etl/train", DagAnnotations.REMAINING_PATH, "5000")
                .pod(ClusterScenario.pod("etl/train", "train-0").request(cpu(2)).runningOn("n2")
                        .startedAt(TestingScheduler.CLOCK.instant().minusSeconds(4500)))
                .job("etl/clean", "default", 1, cpu(2), 1)
                .annotation("etl/clean", DagAnnotations.DAG, "etl/nightly")
                .annotation("etl/clean", DagAnnotations.REMAINING_PATH, "300")
                .job("ml/report", "default", 1, cpu(2), 1)
                .annotation("ml/report", DagAnnotations.DAG, "ml/report")
                .annotation("ml/report", DagAnnotations.REMAINING_PATH, "1000")
                .build();

        SessionResult result = SCHEDULER.runOnce(snapshot);

        assertThat(result.binds()).containsOnlyKeys(new TaskId("etl", "clean-0"));
    }

    @Test
    void withoutAnnotationsCreationOrderDecides() {
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("ml/first", "default", 1, cpu(2), 1)
                .job("ml/second", "default", 1, cpu(2), 1)
                .annotation("ml/second", DagAnnotations.REMAINING_PATH, "not-a-number")
                .build();

        SessionResult result = SCHEDULER.runOnce(snapshot);

        assertThat(result.binds()).containsOnlyKeys(new TaskId("ml", "first-0"));
    }

    @Test
    void higherPriorityWeightBreaksATieOfRemainingPaths() {
        // given: room for one job; equal paths, the lighter one created first
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("etl/clean", "default", 1, cpu(2), 1)
                .annotation("etl/clean", DagAnnotations.REMAINING_PATH, "600")
                .annotation("etl/clean", DagAnnotations.PRIORITY_WEIGHT, "2")
                .job("etl/extract", "default", 1, cpu(2), 1)
                .annotation("etl/extract", DagAnnotations.REMAINING_PATH, "600")
                .annotation("etl/extract", DagAnnotations.PRIORITY_WEIGHT, "9")
                .build();

        // when
        SessionResult result = WITH_PRIORITY.runOnce(snapshot);

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("etl", "extract-0"));
    }

    @Test
    void priorityWeightDoesNotOverrideALongerRemainingPath() {
        // given: the heavier stage of the DAG is created first but its remaining path is shorter
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("etl/report", "default", 1, cpu(2), 1)
                .annotation("etl/report", DagAnnotations.DAG, "etl/nightly")
                .annotation("etl/report", DagAnnotations.REMAINING_PATH, "600")
                .annotation("etl/report", DagAnnotations.PRIORITY_WEIGHT, "100")
                .job("etl/train", "default", 1, cpu(2), 1)
                .annotation("etl/train", DagAnnotations.DAG, "etl/nightly")
                .annotation("etl/train", DagAnnotations.REMAINING_PATH, "8700")
                .annotation("etl/train", DagAnnotations.PRIORITY_WEIGHT, "1")
                .build();

        SessionResult result = WITH_PRIORITY.runOnce(snapshot);

        assertThat(result.binds()).containsOnlyKeys(new TaskId("etl", "train-0"));
    }

    @Test
    void priorityWeightDecidesWhereOnlyOneJobHasARemainingPath() {
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("etl/clean", "default", 1, cpu(2), 1)
                .annotation("etl/clean", DagAnnotations.PRIORITY_WEIGHT, "1")
                .job("etl/extract", "default", 1, cpu(2), 1)
                .annotation("etl/extract", DagAnnotations.REMAINING_PATH, "600")
                .annotation("etl/extract", DagAnnotations.PRIORITY_WEIGHT, "3")
                .build();

        SessionResult result = WITH_PRIORITY.runOnce(snapshot);

        assertThat(result.binds()).containsOnlyKeys(new TaskId("etl", "extract-0"));
    }

    @Test
    void podGroupPriorityOutranksPriorityWeight() {
        // given: the light job has the higher PodGroup priority and was created last
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("etl/heavy", "default", 1, cpu(2), 1, PodGroupPhase.INQUEUE, 0)
                .annotation("etl/heavy", DagAnnotations.REMAINING_PATH, "600")
                .annotation("etl/heavy", DagAnnotations.PRIORITY_WEIGHT, "100")
                .job("etl/urgent", "default", 1, cpu(2), 1, PodGroupPhase.INQUEUE, 10)
                .annotation("etl/urgent", DagAnnotations.REMAINING_PATH, "600")
                .annotation("etl/urgent", DagAnnotations.PRIORITY_WEIGHT, "1")
                .build();

        SessionResult result = WITH_PRIORITY.runOnce(snapshot);

        assertThat(result.binds()).containsOnlyKeys(new TaskId("etl", "urgent-0"));
    }

    @Test
    void negativeOrUnreadablePriorityWeightIsNoWeight() {
        // given: read as numbers, -1 and 0 would put the later job first, and "heavy" would be an error
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("etl/first", "default", 1, cpu(2), 1)
                .annotation("etl/first", DagAnnotations.PRIORITY_WEIGHT, "-1")
                .job("etl/second", "default", 1, cpu(2), 1)
                .annotation("etl/second", DagAnnotations.PRIORITY_WEIGHT, "0")
                .job("etl/third", "default", 1, cpu(2), 1)
                .annotation("etl/third", DagAnnotations.PRIORITY_WEIGHT, "heavy")
                .build();

        SessionResult result = WITH_PRIORITY.runOnce(snapshot);

        assertThat(result.binds()).containsOnlyKeys(new TaskId("etl", "first-0"));
    }
}
