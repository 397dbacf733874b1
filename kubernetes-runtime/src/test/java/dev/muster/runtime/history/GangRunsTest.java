package dev.muster.runtime.history;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.FinishedJob;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class GangRunsTest {
    private static final Instant T0 = Instant.parse("2026-12-08T01:00:00Z");
    private static final JobId TRAIN = JobId.parse("ml/train");

    private final GangRuns runs = new GangRuns();

    @Test
    void aGangThatRanWholeAndSucceededIsRecordedWithItsRunFromTheLastPodStartToTheSnapshotThatSawItFinish() {
        // given: the gang's second pod started 10 s after its first, and it was seen running
        ClusterSnapshot running = TestingGangs.running("train", T0, T0.plusSeconds(10));
        assertThat(runs.observe(running, T0.plusSeconds(11))).isEmpty();

        // when: a later snapshot sees every pod succeeded
        ImmutableList<FinishedJob> finished = runs.observe(TestingGangs.succeeded(running), T0.plusSeconds(70));

        // then
        assertThat(finished).singleElement().satisfies(job -> {
            assertThat(job.id()).isEqualTo(TRAIN);
            assertThat(job.queue()).isEqualTo(new QueueName("default"));
            assertThat(job.run()).isEqualTo(Duration.ofSeconds(60));
            assertThat(job.finished()).isEqualTo(T0.plusSeconds(70));
            assertThat(job.requested()).isEqualTo(cpu(4));
            assertThat(job.annotations()).containsEntry("team", "vision");
        });
        // and only once
        assertThat(runs.observe(TestingGangs.succeeded(running), T0.plusSeconds(71))).isEmpty();
    }

    @Test
    void aGangAlreadyFinishedWhenFirstSeenIsNotRecordedSinceWhenItFinishedIsUnknown() {
        // when: a restarted scheduler's first snapshot
        ImmutableList<FinishedJob> finished = runs.observe(TestingGangs.succeeded(TestingGangs.running("train", T0, T0)), T0.plusSeconds(600));

        // then
        assertThat(finished).isEmpty();
    }

    @Test
    void aGangWhosePodFailedIsNotRecorded() {
        // given
        ClusterSnapshot running = TestingGangs.running("train", T0, T0);
        runs.observe(running, T0.plusSeconds(1));

        // when: one pod fails, the other succeeds; then (a retry) both succeed
        ImmutableList<FinishedJob> failed = runs.observe(TestingGangs.with(running, TaskStatus.SUCCEEDED, TaskStatus.FAILED), T0.plusSeconds(5));
        ImmutableList<FinishedJob> after = runs.observe(TestingGangs.succeeded(running), T0.plusSeconds(9));

        // then
        assertThat(failed).isEmpty();
        assertThat(after).isEmpty();
    }

    @Test
    void aGangThatNeverRanWholeIsNotRecorded() {
        // given: only one of two pods runs (the other is bound, not started)
        ClusterSnapshot partly = TestingGangs.with(TestingGangs.running("train", T0, T0), TaskStatus.RUNNING, TaskStatus.BOUND);
        runs.observe(partly, T0.plusSeconds(1));

        // when
        ImmutableList<FinishedJob> finished = runs.observe(TestingGangs.succeeded(partly), T0.plusSeconds(5));

        // then
        assertThat(finished).isEmpty();
    }
}
