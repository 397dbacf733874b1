package dev.muster.jobs.controller;

import static dev.muster.jobs.controller.TestingJobStates.NOW;
import static dev.muster.jobs.controller.TestingJobStates.RECONCILER;
import static dev.muster.jobs.controller.TestingJobStates.inPhase;
import static dev.muster.jobs.controller.TestingJobStates.train;
import static dev.muster.jobs.controller.TestingJobStates.worker;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.jobs.JobAction;
import dev.muster.jobs.JobPhase;
import dev.muster.jobs.PodPhase;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Volcano's phase machine, one row per transition, on a job of two workers with minAvailable 2 and maxRetry 3. */
class JobStateMachineTest {
    private static final JobRequest SYNC = JobRequest.sync();

    static Stream<Arguments> transitions() {
        return Stream.of(
                row("Pending becomes Running once minAvailable pods run", JobPhase.PENDING, 0, SYNC,
                        List.of(worker(0, PodPhase.RUNNING), worker(1, PodPhase.RUNNING)), JobPhase.RUNNING, 0, 0),
                row("Pending stays while pods wait", JobPhase.PENDING, 0, SYNC,
                        List.of(worker(0, PodPhase.RUNNING), worker(1, PodPhase.PENDING)), JobPhase.PENDING, 0, 0),
                row("Running completes when every pod succeeded", JobPhase.RUNNING, 0, SYNC,
                        List.of(worker(0, PodPhase.SUCCEEDED), worker(1, PodPhase.SUCCEEDED)), JobPhase.COMPLETED, 0, 0),
                row("Running fails when the pods finished with fewer successes than minAvailable", JobPhase.RUNNING, 0, SYNC,
                        List.of(worker(0, PodPhase.SUCCEEDED), worker(1, PodPhase.FAILED)), JobPhase.FAILED, 0, 0),
                row("Running falls back to Pending when more pods wait than the job can spare", JobPhase.RUNNING, 0, SYNC,
                        List.of(worker(0, PodPhase.RUNNING), worker(1, PodPhase.PENDING)), JobPhase.PENDING, 0, 0),
                row("RestartJob in Running kills every pod and restarts", JobPhase.RUNNING, 0, JobRequest.command(JobAction.RESTART_JOB),
                        List.of(worker(0, PodPhase.RUNNING), worker(1, PodPhase.FAILED)), JobPhase.RESTARTING, 2, 1),
                row("RestartJob in Pending restarts too", JobPhase.PENDING, 0, JobRequest.command(JobAction.RESTART_JOB),
                        List.of(worker(0, PodPhase.PENDING)), JobPhase.RESTARTING, 1, 1),
                row("AbortJob in Running kills unfinished pods", JobPhase.RUNNING, 0, JobRequest.command(JobAction.ABORT_JOB),
                        List.of(worker(0, PodPhase.RUNNING), worker(1, PodPhase.SUCCEEDED)), JobPhase.ABORTING, 1, 0),
                row("TerminateJob in Pending", JobPhase.PENDING, 0, JobRequest.command(JobAction.TERMINATE_JOB),
                        List.of(worker(0, PodPhase.PENDING)), JobPhase.TERMINATING, 1, 0),
                row("CompleteJob in Running", JobPhase.RUNNING, 0, JobRequest.command(JobAction.COMPLETE_JOB),
                        List.of(worker(0, PodPhase.RUNNING), worker(1, PodPhase.SUCCEEDED)), JobPhase.COMPLETING, 1, 0),
                row("Aborting stays while a pod terminates", JobPhase.ABORTING, 0, SYNC,
                        List.of(worker(0, PodPhase.RUNNING).deletingNow()), JobPhase.ABORTING, 0, 0),
                row("Aborting becomes Aborted once no pod is alive", JobPhase.ABORTING, 0, SYNC,
                        List.of(worker(0, PodPhase.SUCCEEDED)), JobPhase.ABORTED, 0, 0),
                row("Aborted resumes into Restarting", JobPhase.ABORTED, 0, JobRequest.command(JobAction.RESUME_JOB),
                        List.of(), JobPhase.RESTARTING, 0, 1),
                row("Aborted ignores other actions", JobPhase.ABORTED, 0, JobRequest.command(JobAction.RESTART_JOB),
                        List.of(), JobPhase.ABORTED, 0, 0),
                row("Completing becomes Completed once no pod is alive", JobPhase.COMPLETING, 0, SYNC,
                        List.of(worker(0, PodPhase.SUCCEEDED)), JobPhase.COMPLETED, 0, 0),
                row("Terminating stays while a pod terminates", JobPhase.TERMINATING, 0, SYNC,
                        List.of(worker(0, PodPhase.RUNNING).deletingNow()), JobPhase.TERMINATING, 0, 0),
                row("Terminating becomes Terminated once no pod is alive", JobPhase.TERMINATING, 0, SYNC,
                        List.of(), JobPhase.TERMINATED, 0, 0),
                row("Restarting waits while the killed pods terminate", JobPhase.RESTARTING, 1, SYNC,
                        List.of(worker(0, PodPhase.RUNNING).deletingNow(), worker(1, PodPhase.RUNNING).deletingNow()), JobPhase.RESTARTING, 0, 1),
                row("Restarting returns to Pending once the pods are gone", JobPhase.RESTARTING, 1, SYNC,
                        List.of(), JobPhase.PENDING, 0, 1),
                row("Restarting fails once the retries reach maxRetry", JobPhase.RESTARTING, 3, SYNC,
                        List.of(), JobPhase.FAILED, 0, 3),
                row("Completed is final and kills a leftover running pod", JobPhase.COMPLETED, 0, SYNC,
                        List.of(worker(0, PodPhase.SUCCEEDED), worker(1, PodPhase.RUNNING)), JobPhase.COMPLETED, 1, 0),
                row("Failed is final whatever the action", JobPhase.FAILED, 0, JobRequest.command(JobAction.RESUME_JOB),
                        List.of(), JobPhase.FAILED, 0, 0));
    }

    private static Arguments row(String description, JobPhase from, int retries, JobRequest request, List<ObservedPod> pods,
            JobPhase expected, int deleted, int retryCount) {
        return Arguments.of(description, from, retries, request, pods, expected, deleted, retryCount);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transitions")
    void transition(String description, JobPhase from, int retries, JobRequest request, List<ObservedPod> pods,
            JobPhase expected, int deleted, int retryCount) {
        ObservedJob observed = new ObservedJob(ImmutableList.copyOf(pods), Optional.of(PodGroupPhase.RUNNING));

        JobPlan plan = RECONCILER.reconcile(inPhase(train(), from, retries), observed, request, NOW);

        JobPhase phase = plan.status().map(status -> status.currentPhase()).orElse(from);
        assertThat(phase).isEqualTo(expected);
        assertThat(plan.podsToDelete()).hasSize(deleted);
        assertThat(plan.status().map(status -> status.retryCount()).orElse(retries)).isEqualTo(retryCount);
    }
}
