package dev.muster.jobs.controller;

import static dev.muster.jobs.controller.TestingJobStates.RECONCILER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.jobs.JobPhase;
import dev.muster.jobs.PodPhase;
import dev.muster.jobs.TestingJobs;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Whole lives of the MPI example driven through the reconciler by a stand-in runtime. */
class JobLifecycleTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final List<String> PODS = List.of("lm-mpi-job-mpimaster-0", "lm-mpi-job-mpiworker-0", "lm-mpi-job-mpiworker-1");

    @Test
    void mpiJobRunsToCompletionAndIsDeletedAfterItsTtl() {
        TestingJobRuntime runtime = new TestingJobRuntime(RECONCILER, TestingJobs.fixtureJob("mpi-ssh-svc.yaml"));

        runtime.sync(T0);
        assertThat(runtime.job().status().currentPhase()).isEqualTo(JobPhase.PENDING);
        assertThat(runtime.pods()).isEmpty();
        assertThat(runtime.objects()).containsKeys("Secret/lm-mpi-job-ssh", "ConfigMap/lm-mpi-job-svc", "Service/lm-mpi-job");

        runtime.admit();
        assertThat(runtime.pods()).containsOnlyKeys(PODS);

        PODS.forEach(pod -> runtime.podPhase(pod, PodPhase.RUNNING, OptionalInt.empty(), T0.plusSeconds(10)));
        assertThat(runtime.job().status().currentPhase()).isEqualTo(JobPhase.RUNNING);

        runtime.podPhase("lm-mpi-job-mpimaster-0", PodPhase.SUCCEEDED, OptionalInt.of(0), T0.plusSeconds(100));
        assertThat(runtime.job().status().currentPhase()).isEqualTo(JobPhase.COMPLETING);
        assertThat(runtime.pods().values()).filteredOn(ObservedPod::deleting).hasSize(2);

        runtime.finishDeletions(T0.plusSeconds(110));
        assertThat(runtime.job().status().currentPhase()).isEqualTo(JobPhase.COMPLETED);
        assertThat(runtime.objects()).isEmpty();

        runtime.sync(T0.plusSeconds(110 + 599));
        assertThat(runtime.deleted()).isFalse();
        runtime.sync(T0.plusSeconds(110 + 600));
        assertThat(runtime.deleted()).isTrue();
    }

    @Test
    void evictedPodRestartsTheWholeJobWithNewPods() {
        TestingJobRuntime runtime = new TestingJobRuntime(RECONCILER, TestingJobs.fixtureJob("mpi-ssh-svc.yaml"));
        runtime.sync(T0);
        runtime.admit();
        PODS.forEach(pod -> runtime.podPhase(pod, PodPhase.RUNNING, OptionalInt.empty(), T0.plusSeconds(10)));

        runtime.handle(PodEvents.onDelete(runtime.pods().get("lm-mpi-job-mpiworker-1")), T0.plusSeconds(20));
        assertThat(runtime.job().status().currentPhase()).isEqualTo(JobPhase.RESTARTING);
        runtime.finishDeletions(T0.plusSeconds(30));
        assertThat(runtime.job().status().currentPhase()).isEqualTo(JobPhase.PENDING);
        runtime.admit();

        assertThat(runtime.job().status().retryCount()).isEqualTo(1);
        assertThat(runtime.pods()).containsOnlyKeys(PODS);
        assertThat(runtime.pods().values()).allSatisfy(pod -> assertThat(pod.jobVersion()).isEqualTo(1));
    }
}
