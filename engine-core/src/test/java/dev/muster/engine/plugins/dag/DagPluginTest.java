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
    void longestRemainingCriticalPathGoesFirst() {
        // given: room for one job; the short side stage was created first
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("ml/side-report", "default", 1, cpu(2), 1)
                .annotation("ml/side-report", DagAnnotations.REMAINING_PATH, "600")
                .job("ml/train", "default", 1, cpu(2), 1)
                .annotation("ml/train", DagAnnotations.REMAINING_PATH, "8700")
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(snapshot);

        // then
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ml", "train-0"));
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
}
