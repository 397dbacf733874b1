package dev.muster.jobs.controller;

import static dev.muster.jobs.controller.TestingJobStates.ENTERED;
import static dev.muster.jobs.controller.TestingJobStates.NOW;
import static dev.muster.jobs.controller.TestingJobStates.RECONCILER;
import static dev.muster.jobs.controller.TestingJobStates.inPhase;
import static dev.muster.jobs.controller.TestingJobStates.train;
import static dev.muster.jobs.controller.TestingJobStates.worker;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.model.PodGroupPhase;
import dev.muster.jobs.JobAction;
import dev.muster.jobs.JobEvent;
import dev.muster.jobs.JobPhase;
import dev.muster.jobs.JobReadResult;
import dev.muster.jobs.JobStatus;
import dev.muster.jobs.PodPhase;
import dev.muster.jobs.TestingJobs;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.VolcanoJobReader;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class JobReconcilerTest {
    @Test
    void newJobIsPendingWithItsPodGroupAndNoPodsUntilThePodGroupIsAdmitted() {
        JobPlan plan = RECONCILER.reconcile(train(), ObservedJob.NOTHING, NOW);

        JobStatus status = plan.status().orElseThrow();
        assertThat(status.currentPhase()).isEqualTo(JobPhase.PENDING);
        assertThat(status.minAvailable()).isEqualTo(2);
        assertThat(status.conditions()).extracting(condition -> condition.status()).containsExactly(JobPhase.PENDING);
        PodGroupManifest podGroup = plan.podGroup().orElseThrow();
        assertThat(podGroup.name()).isEqualTo("train-uid-1");
        assertThat(podGroup.minMember()).isEqualTo(2);
        assertThat(podGroup.minTaskMember()).containsEntry("worker", 2);
        assertThat(podGroup.queue()).isEqualTo("default");
        assertThat(podGroup.minResources()).containsEntry("cpu", new BigDecimal(4));
        assertThat(podGroup.owner().getKind()).isEqualTo("Job");
        assertThat(plan.podsToCreate()).isEmpty();
    }

    @Test
    void admittedPodGroupGetsPodsNamedAndLabelledAsVolcanoDoes() {
        VolcanoJob job = inPhase(train(), JobPhase.PENDING, 0);

        JobPlan plan = RECONCILER.reconcile(job, ObservedJob.of(PodGroupPhase.INQUEUE), NOW);

        assertThat(plan.podNamesToCreate()).containsExactly("train-worker-0", "train-worker-1");
        Pod pod = plan.podsToCreate().get(1);
        assertThat(pod.getMetadata().getNamespace()).isEqualTo("ns");
        assertThat(pod.getMetadata().getAnnotations())
                .containsEntry("scheduling.k8s.io/group-name", "train-uid-1")
                .containsEntry("volcano.sh/job-name", "train")
                .containsEntry("volcano.sh/queue-name", "default")
                .containsEntry("volcano.sh/task-spec", "worker")
                .containsEntry("volcano.sh/task-index", "1")
                .containsEntry("volcano.sh/job-version", "0")
                .containsEntry("volcano.sh/template-uid", "train-worker")
                .containsEntry("volcano.sh/job-retry-count", "0");
        assertThat(pod.getMetadata().getLabels())
                .containsEntry("volcano.sh/job-name", "train")
                .containsEntry("volcano.sh/job-namespace", "ns")
                .containsEntry("volcano.sh/task-spec", "worker")
                .containsEntry("volcano.sh/task-index", "1")
                .containsEntry("volcano.sh/queue-name", "default");
        assertThat(pod.getSpec().getSchedulerName()).isEqualTo("volcano");
        OwnerReference owner = pod.getMetadata().getOwnerReferences().get(0);
        assertThat(owner.getApiVersion()).isEqualTo("batch.volcano.sh/v1alpha1");
        assertThat(owner.getUid()).isEqualTo("uid-1");
        assertThat(owner.getController()).isTrue();
        assertThat(plan.status().orElseThrow().counts().pending()).isEqualTo(2);
    }

    @Test
    void surplusAndOutOfSyncPodsAreDeleted() {
        VolcanoJob job = inPhase(train(), JobPhase.RUNNING, 0);
        ObservedPod stale = new ObservedPod("train-worker-0", "worker", PodPhase.RUNNING, false, true, true, 0, OptionalInt.empty(), 0);

        JobPlan plan = RECONCILER.reconcile(job, ObservedJob.of(PodGroupPhase.RUNNING, stale, worker(1, PodPhase.RUNNING),
                worker(2, PodPhase.RUNNING)), NOW);

        assertThat(plan.podsToDelete()).containsExactly("train-worker-0", "train-worker-2");
    }

    @Test
    void retriesUpToMaxRetryThenFails() {
        VolcanoJob job = inPhase(train(), JobPhase.RUNNING, 0);
        VolcanoJob withPolicy = TestingJobs.job(TestingJobStates.TRAIN.replace("  maxRetry: 3\n",
                "  maxRetry: 3\n  policies: [{event: PodFailed, action: RestartJob}]\n"));
        job = withPolicy.withStatus(job.status());
        int restarts = 0;
        for (int attempt = 0; attempt < 10 && job.status().currentPhase() != JobPhase.FAILED; attempt++) {
            JobRequest failure = JobRequest.podFailed("worker", "train-worker-0", OptionalInt.of(1), job.status().version());
            JobPlan restart = RECONCILER.reconcile(job, ObservedJob.of(PodGroupPhase.RUNNING, worker(0, PodPhase.FAILED)), failure, NOW);
            job = job.withStatus(restart.status().orElseThrow());
            if (job.status().currentPhase() == JobPhase.RESTARTING) {
                restarts++;
                JobPlan settle = RECONCILER.reconcile(job, ObservedJob.of(PodGroupPhase.PENDING), NOW);
                job = job.withStatus(settle.status().orElse(job.status()));
            }
        }

        assertThat(job.status().currentPhase()).isEqualTo(JobPhase.FAILED);
        assertThat(job.status().retryCount()).isEqualTo(3);
        assertThat(restarts).isEqualTo(3);
        assertThat(job.status().reason()).isEqualTo("MaxRetryExceeded");
    }

    @Test
    void killingTheJobBumpsItsVersionDeletesThePodGroupAndEventsFromOldPodsOnlySync() {
        VolcanoJob job = inPhase(train(), JobPhase.RUNNING, 0);
        JobPlan restart = RECONCILER.reconcile(job, ObservedJob.of(PodGroupPhase.RUNNING, worker(0, PodPhase.RUNNING)),
                JobRequest.command(JobAction.RESTART_JOB), NOW);
        VolcanoJob restarted = job.withStatus(restart.status().orElseThrow());

        JobPlan late = RECONCILER.reconcile(restarted, ObservedJob.NOTHING,
                JobRequest.podFailed("worker", "train-worker-0", OptionalInt.of(1), 0), NOW);

        assertThat(restart.deletePodGroup()).isTrue();
        assertThat(restarted.status().version()).isEqualTo(1);
        assertThat(late.events()).noneMatch(event -> event.reason().equals("ExecuteAction"));
    }

    @Test
    void finishedJobIsDeletedOnceItsTtlExpires() {
        VolcanoJob job = TestingJobs.job(TestingJobStates.TRAIN.replace("  maxRetry: 3\n", "  maxRetry: 3\n  ttlSecondsAfterFinished: 900\n"));
        VolcanoJob completed = inPhase(job, JobPhase.COMPLETED, 0);

        JobPlan early = RECONCILER.reconcile(completed, ObservedJob.NOTHING, ENTERED.plusSeconds(300));
        JobPlan late = RECONCILER.reconcile(completed, ObservedJob.NOTHING, ENTERED.plusSeconds(900));

        assertThat(early.deleteJob()).isFalse();
        assertThat(early.requeueAfter()).contains(Duration.ofSeconds(600));
        assertThat(late.deleteJob()).isTrue();
        assertThat(late.events()).extracting(PlanEvent::reason).containsExactly("TTLExpired");
    }

    @Test
    void jobThatJustFinishedIsRequeuedForItsTtl() {
        VolcanoJob job = TestingJobs.job(TestingJobStates.TRAIN.replace("  maxRetry: 3\n", "  maxRetry: 3\n  ttlSecondsAfterFinished: 60\n"));

        JobPlan plan = RECONCILER.reconcile(inPhase(job, JobPhase.RUNNING, 0),
                ObservedJob.of(PodGroupPhase.RUNNING, worker(0, PodPhase.SUCCEEDED), worker(1, PodPhase.SUCCEEDED)), NOW);

        assertThat(plan.status().orElseThrow().currentPhase()).isEqualTo(JobPhase.COMPLETED);
        assertThat(plan.requeueAfter()).contains(Duration.ofSeconds(60));
    }

    @Test
    void invalidJobFailsWithEveryProblemInOneEventAndMakesNothing() {
        VolcanoJob job = TestingJobs.job(TestingJobStates.TRAIN.replace("minAvailable: 2", "minAvailable: 5"));

        JobPlan plan = RECONCILER.reconcile(job, ObservedJob.NOTHING, NOW);
        JobPlan again = RECONCILER.reconcile(job.withStatus(plan.status().orElseThrow()), ObservedJob.NOTHING, NOW);

        assertThat(plan.status().orElseThrow().currentPhase()).isEqualTo(JobPhase.FAILED);
        assertThat(plan.status().orElseThrow().reason()).isEqualTo("InvalidSpec");
        assertThat(plan.events()).singleElement().satisfies(event -> {
            assertThat(event.warning()).isTrue();
            assertThat(event.message()).contains("spec.minAvailable: 5 exceeds the 2 replicas of all tasks");
        });
        assertThat(plan.podGroup()).isEmpty();
        assertThat(again.events()).isEmpty();
        assertThat(again.status()).isEmpty();
    }

    @Test
    void minSuccessCompletesTheJobEarly() {
        VolcanoJob job = TestingJobs.job(TestingJobStates.TRAIN.replace("  maxRetry: 3\n", "  maxRetry: 3\n  minSuccess: 1\n"));

        JobPlan plan = RECONCILER.reconcile(inPhase(job, JobPhase.RUNNING, 0),
                ObservedJob.of(PodGroupPhase.RUNNING, worker(0, PodPhase.SUCCEEDED), worker(1, PodPhase.RUNNING)), NOW);

        assertThat(plan.status().orElseThrow().currentPhase()).isEqualTo(JobPhase.COMPLETED);
    }

    @Test
    void unknownPodGroupIsAJobEvent() {
        VolcanoJob job = TestingJobs.job(TestingJobStates.TRAIN.replace("  maxRetry: 3\n",
                "  maxRetry: 3\n  policies: [{event: Unknown, action: RestartJob}]\n"));

        JobPlan plan = RECONCILER.reconcile(inPhase(job, JobPhase.RUNNING, 0), ObservedJob.of(PodGroupPhase.UNKNOWN, worker(0, PodPhase.RUNNING)),
                JobRequest.jobEvent(JobEvent.JOB_UNKNOWN), NOW);

        assertThat(plan.status().orElseThrow().currentPhase()).isEqualTo(JobPhase.RESTARTING);
    }

    @Test
    void problemsFoundWhileReadingFailTheJobToo() {
        JobReadResult<VolcanoJob> read = VolcanoJobReader.read(TestingJobStates.TRAIN.replace("maxRetry: 3", "maxRetry: 3\n  policies: [{event: PodGone, action: RestartJob}]"));

        JobPlan plan = RECONCILER.reconcile(read, ObservedJob.NOTHING, JobRequest.sync(), NOW);

        assertThat(plan.status().orElseThrow().reason()).isEqualTo("InvalidSpec");
        assertThat(plan.status().orElseThrow().message()).contains("Job ns/train: spec.policies[0].event: unknown event 'PodGone'");
    }

    @Test
    void finishedJobSettles() {
        VolcanoJob job = inPhase(train(), JobPhase.RUNNING, 0);
        ObservedJob done = ObservedJob.of(PodGroupPhase.COMPLETED, worker(0, PodPhase.SUCCEEDED), worker(1, PodPhase.SUCCEEDED));

        VolcanoJob completed = job.withStatus(RECONCILER.reconcile(job, done, NOW).status().orElseThrow());
        VolcanoJob settled = completed.withStatus(RECONCILER.reconcile(completed, done, NOW).status().orElse(completed.status()));
        JobPlan again = RECONCILER.reconcile(settled, done, NOW.plusSeconds(60));

        assertThat(completed.status().currentPhase()).isEqualTo(JobPhase.COMPLETED);
        assertThat(settled.status().counts().succeeded()).isEqualTo(2);
        assertThat(again.status()).isEmpty();
        assertThat(again.podsToDelete()).isEmpty();
    }
}
