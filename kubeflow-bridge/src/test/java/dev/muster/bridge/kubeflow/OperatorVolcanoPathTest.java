package dev.muster.bridge.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The real training operator with {@code --gang-scheduler-name=volcano} on a real kube-apiserver, KWOK
 * as the kubelet and Muster the only scheduler: the operator makes a Volcano PodGroup per job and waits
 * for Muster to admit it before it makes the pods; Muster binds each gang whole, and the jobs run to
 * Succeeded. Two nodes of 4 cpu.
 */
@WithRealControlPlane(nodes = 2, nodeCpu = "4", nodeMemory = "16Gi")
class OperatorVolcanoPathTest {
    private static final Duration RUN = Duration.ofMinutes(3);
    private static final Path OUT = Path.of("target", "kubeflow-runs", "volcano");
    private static TrainingOperatorOnRealControlPlane operator;

    @BeforeAll
    static void startOperator(RealControlPlane controlPlane) throws InterruptedException {
        operator = TrainingOperatorOnRealControlPlane.start(controlPlane, OUT, "volcano");
    }

    @AfterAll
    static void stopOperator() {
        if (operator != null) {
            operator.close();
        }
    }

    @AfterEach
    void keepTheRun(TestInfo test) {
        operator.keepPeerLogs(test.getDisplayName());
    }

    @Test
    void theDistributedMnistTfJobIsBoundWholeAndSucceeds(KubernetesClient client) {
        // given: the example's Chief, PS and two Workers, one cpu each
        TrainingJobs jobs = new TrainingJobs(client, TrainingOperatorOnRealControlPlane.NAMESPACE);
        ObjectNode tfJob = TrainingJobs.withCpu(TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", "mnist"), "1");

        // when
        try (GangWatch watch = new GangWatch(jobs, List.of("mnist"))) {
            jobs.submit(tfJob);

            // then: the operator's PodGroup is the whole job, and Muster binds all four pods together
            await().atMost(RUN).until(() -> jobs.pods("mnist").size() == 4 && jobs.pods("mnist").stream().allMatch(TrainingJobs::bound));
            GenericKubernetesResource podGroup = jobs.volcanoPodGroup("mnist").orElseThrow();
            assertThat(podGroup.getAdditionalProperties()).extracting("spec").extracting("minMember").isEqualTo(4);
            assertThat(jobs.pods("mnist")).extracting(pod -> pod.getMetadata().getAnnotations().get("volcano.sh/task-spec"))
                    .containsExactlyInAnyOrder("chief", "ps", "worker", "worker");
            // the bridge's default task topology for a PS/Worker TFJob, kept by the operator's updates of its PodGroup
            await().atMost(RUN).until(() -> Optional.ofNullable(jobs.volcanoPodGroup("mnist").orElseThrow().getMetadata().getAnnotations())
                    .map(annotations -> annotations.get(TaskTopologyDefault.AFFINITY)).filter("ps,worker"::equals).isPresent());
            await().atMost(RUN).until(() -> jobs.hasCondition(TrainingKind.TFJOB, "mnist", "Succeeded"));
            assertThat(watch.longestHalfBound()).isLessThan(Duration.ofSeconds(1));
        }
    }

    @Test
    void theCpuOnlyPyTorchJobIsBoundWholeAndSucceeds(KubernetesClient client) {
        TrainingJobs jobs = new TrainingJobs(client, TrainingOperatorOnRealControlPlane.NAMESPACE);
        ObjectNode pyTorchJob = TrainingJobs.withCpu(TestingJobs.example(TestingJobs.PYTORCH_CPU_DEMO, "default", "torchrun"), "2");

        try (GangWatch watch = new GangWatch(jobs, List.of("torchrun"))) {
            jobs.submit(pyTorchJob);

            await().atMost(RUN).until(() -> jobs.pods("torchrun").size() == 2
                    && jobs.pods("torchrun").stream().allMatch(TrainingJobs::bound));
            await().atMost(RUN).until(() -> jobs.hasCondition(TrainingKind.PYTORCHJOB, "torchrun", "Succeeded"));
            assertThat(watch.longestHalfBound()).isLessThan(Duration.ofSeconds(1));
        }
    }

    @Test
    void twoTfJobsThatDoNotFitTogetherRunOneAfterTheOther(KubernetesClient client) {
        // given: two TFJobs of four 2-cpu pods, each the whole cluster's 8 cpu: pod by pod they would
        // deadlock, each holding half the cluster
        TrainingJobs jobs = new TrainingJobs(client, TrainingOperatorOnRealControlPlane.NAMESPACE);
        ObjectNode first = TrainingJobs.withCpu(TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", "first"), "2");
        ObjectNode second = TrainingJobs.withCpu(TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", "second"), "2");

        // when
        try (GangWatch watch = new GangWatch(jobs, List.of("first", "second"))) {
            jobs.submit(first);
            jobs.submit(second);

            // then: both finish, never both on the nodes at once, never one half-bound
            await().atMost(RUN).until(() -> jobs.hasCondition(TrainingKind.TFJOB, "first", "Succeeded")
                    && jobs.hasCondition(TrainingKind.TFJOB, "second", "Succeeded"));
            assertThat(watch.overlapped()).as("both jobs had pods running at once").isFalse();
            assertThat(watch.longestHalfBound()).isLessThan(Duration.ofSeconds(1));
        }
        JsonNode firstStatus = jobs.job(TrainingKind.TFJOB, "first").orElseThrow().path("status");
        JsonNode secondStatus = jobs.job(TrainingKind.TFJOB, "second").orElseThrow().path("status");
        assertThat(List.of(firstStatus.path("completionTime").asText(), secondStatus.path("completionTime").asText()))
                .allMatch(time -> !time.isEmpty());
    }

    @Test
    void aTfJobTooBigForTheClusterIsToldWhyAndTimesOutWithoutPods(KubernetesClient client) {
        // given: four pods of 6 cpu, more than either node has, and a 5 s schedule timeout
        TrainingJobs jobs = new TrainingJobs(client, TrainingOperatorOnRealControlPlane.NAMESPACE);
        ObjectNode tfJob = TrainingJobs.withCpu(TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", "too-big"), "6");
        TestingJobs.schedulingPolicy(tfJob).put("scheduleTimeoutSeconds", 5);

        // when
        jobs.submit(tfJob);

        // then: the operator waits for Muster to admit the PodGroup, and the TFJob says so
        await().atMost(RUN).until(() -> jobs.bridgeEvents("too-big").stream()
                .anyMatch(event -> event.getReason().equals(TrainingJobWriter.TIMEOUT_REASON)));
        assertThat(jobs.bridgeEvents("too-big")).extracting(event -> event.getReason() + ": " + event.getMessage()).anySatisfy(event ->
                assertThat(event).startsWith(TrainingJobWriter.PENDING_REASON + ": ").contains("PodGroup too-big"));
        assertThat(jobs.pods("too-big")).isEmpty();
    }

    @Test
    void aTfJobInAQueueThatDoesNotExistIsSuspendedAndLeavesNothing(KubernetesClient client) {
        TrainingJobs jobs = new TrainingJobs(client, TrainingOperatorOnRealControlPlane.NAMESPACE);
        ObjectNode tfJob = TrainingJobs.withCpu(TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", "lost"), "1");
        TestingJobs.schedulingPolicy(tfJob).put("queue", "nope");

        jobs.submit(tfJob);

        await().atMost(RUN).until(() -> jobs.hasCondition(TrainingKind.TFJOB, "lost", TrainingJobWriter.INVALID_CONDITION));
        assertThat(jobs.bridgeEvents("lost")).extracting(event -> event.getMessage())
                .contains("spec.runPolicy.schedulingPolicy.queue: queue 'nope' does not exist (known: default)");
        await().atMost(RUN).until(() -> jobs.pods("lost").isEmpty() && jobs.volcanoPodGroup("lost").isEmpty());
        assertThat(jobs.job(TrainingKind.TFJOB, "lost").orElseThrow().path("spec").path("runPolicy").path("suspend").asBoolean()).isTrue();
    }
}
