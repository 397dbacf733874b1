package dev.muster.jobs.controller;

import static dev.muster.jobs.controller.TestingJobStates.NOW;
import static dev.muster.jobs.controller.TestingJobStates.RECONCILER;
import static dev.muster.jobs.controller.TestingJobStates.inPhase;
import static dev.muster.jobs.controller.TestingJobStates.worker;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.model.PodGroupPhase;
import dev.muster.jobs.JobAction;
import dev.muster.jobs.JobEvent;
import dev.muster.jobs.JobPhase;
import dev.muster.jobs.PodPhase;
import dev.muster.jobs.TestingJobs;
import dev.muster.jobs.VolcanoJob;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each policy event and action: which action a request leads to, task-level policies first. */
class PolicyMatcherTest {
    private static final VolcanoJob JOB = TestingJobs.job("""
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: train, namespace: ns}
            spec:
              policies:
              - {event: PodEvicted, action: RestartJob}
              - {events: [TaskFailed, Unknown], action: AbortJob}
              - {exitCode: 137, action: RestartPod}
              - {event: PodPending, action: TerminateJob, timeout: 10m}
              - {event: JobUpdated, action: ResumeJob}
              tasks:
              - name: worker
                replicas: 2
                policies:
                - {event: TaskCompleted, action: CompleteJob}
                - {event: PodEvicted, action: RestartTask}
                template: {spec: {containers: [{name: c, image: i}]}}
              - name: ps
                replicas: 1
                policies: [{event: "*", action: TerminateJob}]
                template: {spec: {containers: [{name: c, image: i}]}}
            """);

    static Stream<Arguments> requests() {
        return Stream.of(
                Arguments.of("a task's policy wins over the job's", JobRequest.podEvent(JobEvent.POD_EVICTED, "worker", "train-worker-0", 0), JobAction.RESTART_TASK),
                Arguments.of("the job's policy when the task has none for the event", JobRequest.podFailed("worker", "train-worker-0", OptionalInt.of(137), 0),
                        JobAction.RESTART_POD),
                Arguments.of("TaskCompleted", JobRequest.podEvent(JobEvent.TASK_COMPLETED, "worker", "train-worker-1", 0), JobAction.COMPLETE_JOB),
                Arguments.of("TaskFailed from a list of events", JobRequest.podEvent(JobEvent.TASK_FAILED, "worker", "train-worker-1", 0), JobAction.ABORT_JOB),
                Arguments.of("Unknown for the whole job", JobRequest.jobEvent(JobEvent.JOB_UNKNOWN), JobAction.ABORT_JOB),
                Arguments.of("* matches any event of its task", JobRequest.podEvent(JobEvent.POD_FAILED, "ps", "train-ps-0", 0), JobAction.TERMINATE_JOB),
                Arguments.of("JobUpdated", JobRequest.jobEvent(JobEvent.JOB_UPDATED), JobAction.RESUME_JOB),
                Arguments.of("an exit code without a policy syncs", JobRequest.podFailed("worker", "train-worker-0", OptionalInt.of(1), 0), JobAction.SYNC_JOB),
                Arguments.of("PodRunning is internal", JobRequest.podEvent(JobEvent.POD_RUNNING, "ps", "train-ps-0", 0), JobAction.SYNC_JOB),
                Arguments.of("a command names its action", JobRequest.command(JobAction.ABORT_JOB), JobAction.ABORT_JOB));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void decides(String description, JobRequest request, JobAction expected) {
        assertThat(PolicyMatcher.decide(JOB, request).action()).isEqualTo(expected);
    }

    @Test
    void eventsFromPodsOfAnOlderJobVersionOnlySync() {
        VolcanoJob restarted = JOB.withStatus(JOB.status().withVersion(2));

        assertThat(PolicyMatcher.decide(restarted, JobRequest.podEvent(JobEvent.POD_EVICTED, "worker", "train-worker-0", 1)))
                .isEqualTo(PolicyDecision.SYNC);
    }

    @Test
    void policyWithATimeoutIsDelayedAndComesBackAsACommand() {
        JobRequest pending = JobRequest.podEvent(JobEvent.POD_PENDING, "worker", "train-worker-0", 0);

        JobPlan plan = RECONCILER.reconcile(inPhase(JOB, JobPhase.RUNNING, 0), ObservedJob.of(PodGroupPhase.RUNNING), pending, NOW);

        assertThat(plan.delayed()).singleElement().satisfies(delayed -> {
            assertThat(delayed.notBefore()).isEqualTo(NOW.plus(Duration.ofMinutes(10)));
            assertThat(delayed.request().command()).contains(JobAction.TERMINATE_JOB);
            assertThat(delayed.request().pod()).contains("train-worker-0");
        });
        assertThat(plan.events()).extracting(PlanEvent::message).containsExactly("Execute action TerminateJob after 10m0s");
        assertThat(plan.podsToDelete()).isEmpty();
    }

    @Test
    void restartPodKillsOnlyThatPod() {
        JobRequest oom = JobRequest.podFailed("worker", "train-worker-0", OptionalInt.of(137), 0);

        JobPlan plan = RECONCILER.reconcile(inPhase(JOB, JobPhase.RUNNING, 0),
                ObservedJob.of(PodGroupPhase.RUNNING, worker(0, PodPhase.FAILED), worker(1, PodPhase.RUNNING)), oom, NOW);

        assertThat(plan.podsToDelete()).containsExactly("train-worker-0");
        assertThat(plan.status().orElseThrow().currentPhase()).isEqualTo(JobPhase.RESTARTING);
        assertThat(plan.status().orElseThrow().retryCount()).isEqualTo(1);
    }

    @Test
    void podUpdatesBecomeVolcanosEvents() {
        ObservedPod running = worker(0, PodPhase.RUNNING);
        ObservedPod done = running.withPhase(PodPhase.SUCCEEDED);
        ObservedJob oneDone = ObservedJob.of(PodGroupPhase.RUNNING, done, worker(1, PodPhase.RUNNING));
        ObservedJob bothDone = ObservedJob.of(PodGroupPhase.RUNNING, done, worker(1, PodPhase.SUCCEEDED));
        ObservedPod restarting = running.withRestarts(3);

        assertThat(PodEvents.onUpdate(JOB, oneDone, running, done).event()).isEqualTo(JobEvent.OUT_OF_SYNC);
        assertThat(PodEvents.onUpdate(JOB, bothDone, running, done).event()).isEqualTo(JobEvent.TASK_COMPLETED);
        assertThat(PodEvents.onUpdate(JOB, oneDone, running, running.failedWith(137)).exitCode()).hasValue(137);
        assertThat(PodEvents.onUpdate(JOB, ObservedJob.of(PodGroupPhase.RUNNING, restarting), running, restarting).event())
                .isEqualTo(JobEvent.TASK_FAILED);
        assertThat(PodEvents.onDelete(running).event()).isEqualTo(JobEvent.POD_EVICTED);
        assertThat(PodEvents.onPodGroupPhase(PodGroupPhase.UNKNOWN).event()).isEqualTo(JobEvent.JOB_UNKNOWN);
        assertThat(Optional.of(PodEvents.onPodGroupPhase(PodGroupPhase.RUNNING).event())).contains(JobEvent.OUT_OF_SYNC);
    }

    @Test
    void delayedActionIsCancelledWhenItsPodMovesOn() {
        JobRequest pending = JobRequest.podEvent(JobEvent.POD_PENDING, "worker", "train-worker-0", 0);
        JobPlan plan = RECONCILER.reconcile(inPhase(JOB, JobPhase.RUNNING, 0), ObservedJob.of(PodGroupPhase.RUNNING), pending, NOW);
        DelayedRequest delayed = plan.delayed().get(0);

        assertThat(delayed.isCancelledBy(JobRequest.podEvent(JobEvent.POD_RUNNING, "worker", "train-worker-0", 0))).isTrue();
        assertThat(delayed.isCancelledBy(JobRequest.podEvent(JobEvent.POD_PENDING, "worker", "train-worker-0", 0))).isFalse();
        assertThat(delayed.isCancelledBy(JobRequest.podEvent(JobEvent.POD_RUNNING, "worker", "train-worker-1", 0))).isFalse();
    }
}
