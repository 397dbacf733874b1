package dev.muster.bridge.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import dev.muster.runtime.informers.KubernetesResources;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad TFJobs under the real training operator ({@code --gang-scheduler-name=muster}, the path on which the
 * operator creates pods at once) and Muster: each gets the {@code Invalid} condition and an Event naming
 * the field and the value, is suspended so that the operator removes what it made, and never has a gang
 * half bound. The operator's webhooks are not called (see {@link TrainingOperatorOnRealControlPlane}),
 * so this input reaches the cluster as it would without them.
 */
@WithRealControlPlane(nodes = 2, nodeCpu = "4", nodeMemory = "16Gi")
class BadTrainingJobTest {
    private static final Duration RUN = Duration.ofMinutes(2);
    private static final Path OUT = Path.of("target", "kubeflow-runs", "bad-input");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static TrainingOperatorOnRealControlPlane operator;

    @BeforeAll
    static void startOperator(RealControlPlane controlPlane) throws InterruptedException {
        operator = TrainingOperatorOnRealControlPlane.start(controlPlane, OUT, "muster");
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
    void aJobSuspendedForAMissingQueueResumesAndSucceedsOnceTheQueueExists(KubernetesClient client) {
        // given: a TFJob in queue later, which does not exist yet
        TrainingJobs jobs = new TrainingJobs(client, TrainingOperatorOnRealControlPlane.NAMESPACE);
        ObjectNode tfJob = TrainingJobs.withCpu(TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", "waits-for-queue"), "1");
        TestingJobs.schedulingPolicy(tfJob).put("queue", "later");
        jobs.submit(tfJob);
        await().atMost(RUN).until(() -> jobs.hasCondition(TrainingKind.TFJOB, "waits-for-queue", TrainingJobWriter.INVALID_CONDITION));

        // when: the queue is made
        ObjectNode queue = JSON.createObjectNode().put("apiVersion", "scheduling.volcano.sh/v1beta1").put("kind", "Queue");
        queue.putObject("metadata").put("name", "later");
        queue.putObject("spec").put("weight", 1);
        client.genericKubernetesResources(KubernetesResources.QUEUES).resource(JSON.convertValue(queue, GenericKubernetesResource.class))
                .create();

        // then: the bridge resumes the job it suspended, and it runs to Succeeded in that queue
        await().atMost(RUN).until(() -> jobs.hasCondition(TrainingKind.TFJOB, "waits-for-queue", "Succeeded"));
        JsonNode job = jobs.job(TrainingKind.TFJOB, "waits-for-queue").orElseThrow();
        assertThat(job.path("spec").path("runPolicy").path("suspend").asBoolean()).isFalse();
        assertThat(job.path("metadata").path("annotations").has(KubeflowApi.SUSPENDED_BY_MUSTER)).isFalse();
        assertThat(jobs.condition(TrainingKind.TFJOB, "waits-for-queue", TrainingJobWriter.INVALID_CONDITION).orElseThrow()
                .path("status").asText()).isEqualTo("False");
    }

    static Stream<Arguments> badJobs() {
        return Stream.of(
                Arguments.of("an unknown replica type", "unknown-type", (Consumer<ObjectNode>) job -> TestingJobs.replicaSpec(job, "Evaluater")
                        .put("replicas", 1).set("template", job.path("spec").path("tfReplicaSpecs").path("PS").path("template").deepCopy()),
                        "spec.tfReplicaSpecs.Evaluater: unknown replica type 'Evaluater'"),
                Arguments.of("negative replicas", "negative", (Consumer<ObjectNode>) job -> TestingJobs.replicaSpec(job, "Worker")
                        .put("replicas", -2), "spec.tfReplicaSpecs.Worker.replicas: -2 is negative"),
                Arguments.of("minAvailable above the total replicas", "too-many", (Consumer<ObjectNode>) job -> TestingJobs.schedulingPolicy(job)
                        .put("minAvailable", 9), "spec.runPolicy.schedulingPolicy.minAvailable: 9 is above the 4 replicas"),
                Arguments.of("a queue that does not exist", "no-queue", (Consumer<ObjectNode>) job -> TestingJobs.schedulingPolicy(job)
                        .put("queue", "nope"), "spec.runPolicy.schedulingPolicy.queue: queue 'nope' does not exist"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badJobs")
    void aBadTfJobGetsAConditionAndAnEventAndNothingIsLeftHalfMade(String description, String name, Consumer<ObjectNode> change,
            String problem, KubernetesClient client) {
        // given: the dist-mnist example, one cpu a pod, made bad
        TrainingJobs jobs = new TrainingJobs(client, TrainingOperatorOnRealControlPlane.NAMESPACE);
        ObjectNode tfJob = TrainingJobs.withCpu(TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", name), "1");
        change.accept(tfJob);

        // when
        try (GangWatch watch = new GangWatch(jobs, List.of(name))) {
            jobs.submit(tfJob);

            // then: the condition and the Event name the field and the value
            await().atMost(RUN).until(() -> jobs.hasCondition(TrainingKind.TFJOB, name, TrainingJobWriter.INVALID_CONDITION));
            assertThat(jobs.condition(TrainingKind.TFJOB, name, TrainingJobWriter.INVALID_CONDITION).orElseThrow().path("message").asText())
                    .contains(problem);
            await().atMost(RUN).until(() -> jobs.bridgeEvents(name).stream().map(Event::getMessage).anyMatch(message -> message.contains(problem)));
            assertThat(jobs.bridgeEvents(name)).allMatch(event -> event.getType().equals("Warning")
                    && event.getReason().equals(TrainingJobWriter.INVALID_REASON) && event.getInvolvedObject().getKind().equals("TFJob"));
            // the job is suspended, so the operator makes nothing and removes what it made; nothing runs
            JsonNode job = jobs.job(TrainingKind.TFJOB, name).orElseThrow();
            assertThat(job.path("spec").path("runPolicy").path("suspend").asBoolean()).isTrue();
            assertThat(job.path("metadata").path("annotations").path(KubeflowApi.SUSPENDED_BY_MUSTER).asText()).isEqualTo(problem.split(":")[0]);
            await().atMost(RUN).until(() -> jobs.pods(name).isEmpty() && jobs.coschedulingPodGroup(name).isEmpty()
                    && jobs.volcanoPodGroup(name).isEmpty());
            assertThat(watch.longestHalfBound()).isLessThan(Duration.ofSeconds(1));
        }
    }
}
