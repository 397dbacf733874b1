package dev.muster.bridge.kubeflow;

import static dev.muster.bridge.kubeflow.NativeSyncs.NOW;
import static dev.muster.bridge.kubeflow.NativeSyncs.admitted;
import static dev.muster.bridge.kubeflow.NativeSyncs.condition;
import static dev.muster.bridge.kubeflow.NativeSyncs.exited;
import static dev.muster.bridge.kubeflow.NativeSyncs.job;
import static dev.muster.bridge.kubeflow.NativeSyncs.pod;
import static dev.muster.bridge.kubeflow.NativeSyncs.sync;
import static dev.muster.bridge.kubeflow.NativeSyncs.trueConditions;
import static dev.muster.bridge.kubeflow.TestingJobs.replicaSpec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** One sync of native mode: the gang first, then the replicas, restarts and runPolicy, as training operator v1.9.4 orders them. */
class NativeJobSyncTest {
    private static final ObjectNode MNIST = job(TestingJobs.TF_DIST_MNIST, "mnist");
    private static final ObjectNode TORCH = job(TestingJobs.PYTORCH_CPU_DEMO, "torch");

    @Test
    void aNewJobGetsItsPodGroupAndTheCreatedConditionButNoPodYet() {
        NativeSyncPlan plan = sync(MNIST, NativeJobStatus.EMPTY, List.of(), Optional.empty(), NOW);

        assertThat(plan.createPodGroup()).isTrue();
        assertThat(plan.createPods()).isEmpty();
        assertThat(plan.createServices()).isEmpty();
        assertThat(trueConditions(plan)).containsExactly("Created");
        assertThat(condition(plan, "Created").reason()).isEqualTo("TFJobCreated");
        assertThat(condition(plan, "Created").message()).isEqualTo("TFJob mnist is created.");
    }

    @Test
    void noPodIsMadeWhileThePodGroupIsPending() {
        NativeSyncPlan plan = sync(MNIST, NativeJobStatus.EMPTY, List.of(), Optional.of("Pending"), NOW);

        assertThat(plan.createPodGroup()).isFalse();
        assertThat(plan.createPods()).isEmpty();
    }

    @Test
    void anAdmittedGangGetsEveryMissingPodAndServiceOnce() {
        NativeSyncPlan plan = admitted(MNIST, NativeJobStatus.EMPTY, pod("mnist", "worker", 1, "Pending"));

        assertThat(plan.createPods()).containsExactly("mnist-chief-0", "mnist-ps-0", "mnist-worker-0");
        assertThat(plan.createServices()).containsExactly("mnist-chief-0", "mnist-ps-0", "mnist-worker-0");
        assertThat(plan.deletePods()).isEmpty();
    }

    @Test
    void aPodAboveTheReplicasIsDeletedWithItsService() {
        NativeSyncPlan plan = admitted(TORCH, NativeJobStatus.EMPTY, pod("torch", "master", 0, "Running"), pod("torch", "worker", 0, "Running"),
                pod("torch", "worker", 1, "Running"));

        assertThat(plan.deletePods()).containsExactly("torch-worker-1");
        assertThat(plan.deleteServices()).containsExactly("torch-worker-1");
        assertThat(plan.createPods()).isEmpty();
    }

    static Stream<Arguments> restarts() {
        return Stream.of(
                Arguments.of("OnFailure restarts any failure", "OnFailure", 1, true),
                Arguments.of("Always restarts any failure", "Always", 1, true),
                Arguments.of("ExitCode restarts a signal (137)", "ExitCode", 137, true),
                Arguments.of("ExitCode fails the job on a code below 128", "ExitCode", 1, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("restarts")
    void aFailedPodIsDeletedToBeMadeAgainOrFailsTheJobByItsReplicaPolicy(String description, String policy, int exitCode, boolean restarts) {
        ObjectNode job = MNIST.deepCopy();
        replicaSpec(job, "Worker").put("restartPolicy", policy);

        NativeSyncPlan plan = admitted(job, NativeJobStatus.EMPTY, pod("mnist", "chief", 0, "Running"), pod("mnist", "ps", 0, "Running"),
                pod("mnist", "worker", 0, "Running"), exited("mnist", "worker", 1, exitCode));

        if (restarts) {
            assertThat(plan.deletePods()).containsExactly("mnist-worker-1");
            assertThat(trueConditions(plan)).containsExactly("Created", "Restarting");
            assertThat(condition(plan, "Restarting").reason()).isEqualTo("TFJobRestarting");
            assertThat(condition(plan, "Restarting").message()).isEqualTo("job mnist is restarting because Worker replica(s) failed.");
            assertThat(plan.events()).anySatisfy(event -> assertThat(event.warning()).isTrue());
        } else {
            assertThat(plan.deletePods()).isEmpty();
            assertThat(trueConditions(plan)).containsExactly("Created", "Failed");
            assertThat(condition(plan, "Failed").message()).isEqualTo("job \"mnist\" is failing because \"Worker\" replica(s) failed.");
        }
    }

    @Test
    void aRestartedPodIsMadeAgainOnceTheFailedOneIsGoneAndTheJobRunsAgain() {
        ObjectNode job = MNIST.deepCopy();
        replicaSpec(job, "Worker").put("restartPolicy", "OnFailure");
        NativeSyncPlan restarting = admitted(job, NativeJobStatus.EMPTY, pod("mnist", "chief", 0, "Running"), pod("mnist", "ps", 0, "Running"),
                pod("mnist", "worker", 0, "Running"), exited("mnist", "worker", 1, 1));

        NativeSyncPlan remade = admitted(job, restarting.status(), pod("mnist", "chief", 0, "Running"), pod("mnist", "ps", 0, "Running"),
                pod("mnist", "worker", 0, "Running"));

        assertThat(remade.createPods()).containsExactly("mnist-worker-1");
        assertThat(trueConditions(remade)).containsExactly("Created", "Running");
        assertThat(remade.status().condition(JobCondition.RESTARTING)).isEmpty();
    }

    static Stream<Arguments> cleanPodPolicies() {
        return Stream.of(
                Arguments.of("None deletes nothing", "None", List.of()),
                Arguments.of("Running deletes the running pods", "Running", List.of("mnist-ps-0", "mnist-worker-0")),
                Arguments.of("All deletes every pod", "All", List.of("mnist-chief-0", "mnist-ps-0", "mnist-worker-0", "mnist-worker-1")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cleanPodPolicies")
    void aFinishedJobsPodsAreCleanedUpByItsCleanPodPolicy(String description, String policy, List<String> deleted) {
        ObjectNode job = MNIST.deepCopy();
        ((ObjectNode) job.path("spec")).withObjectProperty("runPolicy").put("cleanPodPolicy", policy);
        NativeSyncPlan succeeded = admitted(job, NativeJobStatus.EMPTY, exited("mnist", "chief", 0, 0), pod("mnist", "ps", 0, "Running"),
                pod("mnist", "worker", 0, "Running"), exited("mnist", "worker", 1, 0));

        NativeSyncPlan cleanUp = admitted(job, succeeded.status(), exited("mnist", "chief", 0, 0), pod("mnist", "ps", 0, "Running"),
                pod("mnist", "worker", 0, "Running"), exited("mnist", "worker", 1, 0));

        assertThat(cleanUp.deletePods()).containsExactlyElementsOf(deleted);
        assertThat(cleanUp.deleteServices()).containsExactlyElementsOf(deleted);
        assertThat(cleanUp.deletePodGroup()).isTrue();
        assertThat(cleanUp.status().replicaStatuses().get("Worker").succeeded()).isEqualTo(2);
    }

    @Test
    void aFinishedJobIsDeletedOnceItsTtlHasPassed() {
        ObjectNode job = MNIST.deepCopy();
        ((ObjectNode) job.path("spec")).withObjectProperty("runPolicy").put("ttlSecondsAfterFinished", 60);
        NativeJobStatus succeeded = admitted(job, NativeJobStatus.EMPTY, exited("mnist", "chief", 0, 0)).status();

        NativeSyncPlan early = sync(job, succeeded, List.of(), Optional.of("Inqueue"), NOW.plusSeconds(20));
        NativeSyncPlan late = sync(job, succeeded, List.of(), Optional.of("Inqueue"), NOW.plusSeconds(60));

        assertThat(early.deleteJob()).isFalse();
        assertThat(early.recheckAfter()).contains(Duration.ofSeconds(40));
        assertThat(late.deleteJob()).isTrue();
    }

    @Test
    void aJobActiveLongerThanItsDeadlineFails() {
        ObjectNode job = MNIST.deepCopy();
        ((ObjectNode) job.path("spec")).withObjectProperty("runPolicy").put("activeDeadlineSeconds", 30);
        NativeSyncPlan started = admitted(job, NativeJobStatus.EMPTY, pod("mnist", "chief", 0, "Running"));

        NativeSyncPlan past = sync(job, started.status(), List.of(pod("mnist", "chief", 0, "Running")), Optional.of("Inqueue"),
                NOW.plusSeconds(30));

        assertThat(started.recheckAfter()).contains(Duration.ofSeconds(30));
        assertThat(trueConditions(past)).containsExactly("Created", "Failed");
        assertThat(condition(past, "Failed").message()).isEqualTo("Job mnist has failed because it was active longer than specified deadline");
        assertThat(past.status().completionTime()).contains(NOW.plusSeconds(30));
    }

    @Test
    void aJobWhoseRunningPodsRestartedAsOftenAsItsBackoffLimitFails() {
        ObjectNode job = TORCH.deepCopy();
        ((ObjectNode) job.path("spec")).withObjectProperty("runPolicy").put("backoffLimit", 2);
        ReplicaPod restarted = new ReplicaPod("torch-worker-0", "worker", 0, "Running", Optional.empty(), 2, false);

        NativeSyncPlan plan = admitted(job, NativeJobStatus.EMPTY, pod("torch", "master", 0, "Running"), restarted);

        assertThat(trueConditions(plan)).containsExactly("Created", "Failed");
        assertThat(condition(plan, "Failed").message()).isEqualTo("Job torch has failed because it has reached the specified backoff limit");
    }

    @Test
    void aSuspendedJobLosesItsPodsAndSaysSoAndResumingGivesANewStartTime() {
        ObjectNode job = TORCH.deepCopy();
        ((ObjectNode) job.path("spec")).withObjectProperty("runPolicy").put("suspend", true);
        NativeJobStatus running = admitted(TORCH, NativeJobStatus.EMPTY, pod("torch", "master", 0, "Running"),
                pod("torch", "worker", 0, "Running")).status();

        NativeSyncPlan suspended = admitted(job, running, pod("torch", "master", 0, "Running"), pod("torch", "worker", 0, "Running"));
        NativeSyncPlan resumed = sync(TORCH, suspended.status(), List.of(), Optional.of("Inqueue"), NOW.plusSeconds(90));

        assertThat(suspended.deletePods()).containsExactly("torch-master-0", "torch-worker-0");
        assertThat(trueConditions(suspended)).containsExactly("Created", "Suspended");
        assertThat(condition(suspended, "Running").reason()).isEqualTo("PyTorchJobSuspended");
        assertThat(condition(resumed, "Suspended").status()).isFalse();
        assertThat(condition(resumed, "Suspended").reason()).isEqualTo("PyTorchJobResumed");
        assertThat(resumed.status().startTime()).contains(NOW.plusSeconds(90));
        assertThat(resumed.createPods()).containsExactly("torch-master-0", "torch-worker-0");
    }

    static Stream<Arguments> managers() {
        return Stream.of(
                Arguments.of("no managedBy: the operator's job, so native mode's", null, false, false),
                Arguments.of("the operator's own value", "kubeflow.org/training-operator", false, false),
                Arguments.of("MultiKueue, which the operator's webhook admits", "kueue.x-k8s.io/multikueue", true, false),
                Arguments.of("a controller the operator does not know", "example.com/my-controller", true, true),
                Arguments.of("the empty string, which the operator also skips", "", true, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("managers")
    void aJobManagedByAnotherControllerIsLeftAloneWithAnEventNamingTheFieldAndTheValue(String description, String managedBy,
            boolean leftAlone, boolean warning) {
        ObjectNode job = MNIST.deepCopy();
        if (managedBy != null) {
            job.with("spec").with("runPolicy").put("managedBy", managedBy);
        }

        Optional<NativeSyncPlan.Event> event = NativeJobSync.leftAlone(NativeJobReader.read(TrainingKind.TFJOB, job).job().job());

        assertThat(event.isPresent()).as("left alone").isEqualTo(leftAlone);
        event.ifPresent(said -> {
            assertThat(said.warning()).as("a Warning").isEqualTo(warning);
            assertThat(said.reason()).isEqualTo("TFJobManagedElsewhere");
            assertThat(said.message()).startsWith("TFJob ml/mnist").contains("spec.runPolicy.managedBy")
                    .contains(warning ? "'" + managedBy + "'" : managedBy);
        });
    }

    @Test
    void aJobLeftAloneIsLeftAloneEvenWithBadInput() {
        // MultiKueue's job with negative replicas: its own controller's to refuse, not native mode's
        ObjectNode job = MNIST.deepCopy();
        job.with("spec").with("runPolicy").put("managedBy", "kueue.x-k8s.io/multikueue");
        replicaSpec(job, "Worker").put("replicas", -1);

        NativeJobReader.Read read = NativeJobReader.read(TrainingKind.TFJOB, job);

        assertThat(read.problems()).isNotEmpty();
        assertThat(NativeJobSync.leftAlone(read.job().job())).isPresent();
    }
}
