package dev.muster.bridge.kubeflow;

import static dev.muster.bridge.kubeflow.NativeSyncs.admitted;
import static dev.muster.bridge.kubeflow.NativeSyncs.condition;
import static dev.muster.bridge.kubeflow.NativeSyncs.exited;
import static dev.muster.bridge.kubeflow.NativeSyncs.job;
import static dev.muster.bridge.kubeflow.NativeSyncs.pod;
import static dev.muster.bridge.kubeflow.NativeSyncs.trueConditions;
import static dev.muster.bridge.kubeflow.TestingJobs.replicaSpec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.bridge.kubeflow.NativeJobStatus.ReplicaCounts;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The kinds' status rules, as training operator v1.9.4's UpdateJobStatus words and orders them. */
class NativeStatusRulesTest {
    private static final ObjectNode MNIST = job(TestingJobs.TF_DIST_MNIST, "mnist");
    private static final ObjectNode TORCH = job(TestingJobs.PYTORCH_CPU_DEMO, "torch");

    @Test
    void aTfJobWithAChiefRunsWhileItsChiefRuns() {
        NativeSyncPlan plan = admitted(MNIST, NativeJobStatus.EMPTY, pod("mnist", "chief", 0, "Running"), pod("mnist", "ps", 0, "Running"),
                pod("mnist", "worker", 0, "Running"), pod("mnist", "worker", 1, "Pending"));

        assertThat(trueConditions(plan)).containsExactly("Created", "Running");
        assertThat(condition(plan, "Running").reason()).isEqualTo("TFJobRunning");
        assertThat(condition(plan, "Running").message()).isEqualTo("TFJob ml/mnist is running.");
        assertThat(plan.status().replicaStatuses()).containsEntry("Worker", new ReplicaCounts(1, 0, 0))
                .containsEntry("Chief", new ReplicaCounts(1, 0, 0));
        assertThat(plan.status().startTime()).contains(NativeSyncs.NOW);
        assertThat(plan.status().completionTime()).isEmpty();
    }

    @Test
    void aTfJobWithAChiefSucceedsWhenTheChiefDoesThoughWorkersStillRun() {
        NativeSyncPlan plan = admitted(MNIST, NativeJobStatus.EMPTY, exited("mnist", "chief", 0, 0), pod("mnist", "ps", 0, "Running"),
                pod("mnist", "worker", 0, "Running"), pod("mnist", "worker", 1, "Running"));

        assertThat(trueConditions(plan)).containsExactly("Created", "Succeeded");
        assertThat(condition(plan, "Succeeded").message()).isEqualTo("TFJob ml/mnist successfully completed.");
        assertThat(plan.status().completionTime()).contains(NativeSyncs.NOW);
        assertThat(plan.events()).extracting(NativeSyncPlan.Event::reason).containsExactly("TFJobSucceeded");
    }

    @Test
    void aTfJobWithoutAChiefSucceedsOnceWorkerZeroExitsZero() {
        ObjectNode job = MNIST.deepCopy();
        ((ObjectNode) job.path("spec").path("tfReplicaSpecs")).remove("Chief");

        NativeSyncPlan plan = admitted(job, NativeJobStatus.EMPTY, pod("mnist", "ps", 0, "Running"), exited("mnist", "worker", 0, 0),
                pod("mnist", "worker", 1, "Running"));

        assertThat(trueConditions(plan)).containsExactly("Created", "Succeeded");
    }

    @Test
    void withSuccessPolicyAllWorkersWorkerZeroAloneDoesNotEndTheJob() {
        ObjectNode job = MNIST.deepCopy();
        ((ObjectNode) job.path("spec").path("tfReplicaSpecs")).remove("Chief");
        ((ObjectNode) job.path("spec")).put("successPolicy", "AllWorkers");

        NativeSyncPlan plan = admitted(job, NativeJobStatus.EMPTY, pod("mnist", "ps", 0, "Running"), exited("mnist", "worker", 0, 0),
                pod("mnist", "worker", 1, "Running"));

        assertThat(trueConditions(plan)).containsExactly("Created", "Running");
    }

    @Test
    void aFailedReplicaWithRestartPolicyNeverFailsTheTfJob() {
        NativeSyncPlan plan = admitted(MNIST, NativeJobStatus.EMPTY, pod("mnist", "chief", 0, "Running"), exited("mnist", "ps", 0, 1),
                pod("mnist", "worker", 0, "Running"), pod("mnist", "worker", 1, "Running"));

        assertThat(trueConditions(plan)).containsExactly("Created", "Failed");
        assertThat(condition(plan, "Running").status()).isFalse();
        assertThat(condition(plan, "Failed").reason()).isEqualTo("TFJobFailed");
        assertThat(condition(plan, "Failed").message()).isEqualTo("TFJob ml/mnist has failed because 1 PS replica(s) failed.");
        assertThat(plan.deletePods()).isEmpty();
    }

    @Test
    void aFailedWorkerDoesNotFailATfJobWithDynamicWorkers() {
        ObjectNode job = MNIST.deepCopy();
        ((ObjectNode) job.path("spec")).put("enableDynamicWorker", true);

        NativeSyncPlan plan = admitted(job, NativeJobStatus.EMPTY, pod("mnist", "chief", 0, "Running"), pod("mnist", "ps", 0, "Running"),
                exited("mnist", "worker", 0, 1), pod("mnist", "worker", 1, "Running"));

        assertThat(trueConditions(plan)).containsExactly("Created", "Running");
        assertThat(plan.status().replicaStatuses()).containsEntry("Worker", new ReplicaCounts(1, 0, 1));
    }

    @Test
    void aPyTorchJobSucceedsWhenItsMasterDoes() {
        NativeSyncPlan plan = admitted(TORCH, NativeJobStatus.EMPTY, exited("torch", "master", 0, 0), pod("torch", "worker", 0, "Running"));

        assertThat(trueConditions(plan)).containsExactly("Created", "Succeeded");
        assertThat(condition(plan, "Succeeded").reason()).isEqualTo("PyTorchJobSucceeded");
        assertThat(condition(plan, "Succeeded").message()).isEqualTo("PyTorchJob torch is successfully completed.");
    }

    @Test
    void aPyTorchJobRunsWhileItsMasterRuns() {
        NativeSyncPlan plan = admitted(TORCH, NativeJobStatus.EMPTY, pod("torch", "master", 0, "Running"), pod("torch", "worker", 0, "Running"));

        assertThat(trueConditions(plan)).containsExactly("Created", "Running");
        assertThat(condition(plan, "Running").message()).isEqualTo("PyTorchJob torch is running.");
    }

    @Test
    void aPyTorchJobWhoseNeverRestartedWorkerFailedFails() {
        ObjectNode job = TORCH.deepCopy();
        replicaSpec(job, "Worker").put("restartPolicy", "Never");

        NativeSyncPlan plan = admitted(job, NativeJobStatus.EMPTY, pod("torch", "master", 0, "Running"), exited("torch", "worker", 0, 1));

        assertThat(trueConditions(plan)).containsExactly("Created", "Failed");
        assertThat(condition(plan, "Failed").message()).isEqualTo("PyTorchJob torch is failed because 1 Worker replica(s) failed.");
    }

    @Test
    void aFailedJobStaysFailedWhateverItsPodsDoLater() {
        NativeSyncPlan failed = admitted(MNIST, NativeJobStatus.EMPTY, pod("mnist", "chief", 0, "Running"), exited("mnist", "ps", 0, 1),
                pod("mnist", "worker", 0, "Running"), pod("mnist", "worker", 1, "Running"));

        NativeJobStatus later = failed.status().withCondition(JobCondition.SUCCEEDED, true, "TFJobSucceeded", "done", NativeSyncs.NOW);

        assertThat(later).isEqualTo(failed.status());
        assertThat(NativeSyncs.sync(MNIST, failed.status(), java.util.List.of(exited("mnist", "chief", 0, 0)), Optional.of("Inqueue"),
                NativeSyncs.NOW.plusSeconds(5)).status().isTrue(JobCondition.SUCCEEDED)).isFalse();
    }
}
