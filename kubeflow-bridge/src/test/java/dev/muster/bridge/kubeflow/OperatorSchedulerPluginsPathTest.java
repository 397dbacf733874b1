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
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The real training operator with {@code --gang-scheduler-name=muster} on a real kube-apiserver, KWOK as
 * the kubelet and Muster the only scheduler: the operator makes scheduler-plugins PodGroups, which carry
 * no queue, and pods for scheduler {@code muster} at once; the bridge completes them. Two nodes of 4 cpu
 * and a Volcano Queue {@code research}.
 */
@WithRealControlPlane(nodes = 2, nodeCpu = "4", nodeMemory = "16Gi")
class OperatorSchedulerPluginsPathTest {
    private static final Duration RUN = Duration.ofMinutes(3);
    private static final Path OUT = Path.of("target", "kubeflow-runs", "scheduler-plugins");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static TrainingOperatorOnRealControlPlane operator;

    @BeforeAll
    static void startOperator(RealControlPlane controlPlane) throws InterruptedException {
        ObjectNode queue = JSON.createObjectNode().put("apiVersion", "scheduling.volcano.sh/v1beta1").put("kind", "Queue");
        queue.putObject("metadata").put("name", "research");
        queue.putObject("spec").put("weight", 1);
        controlPlane.client().genericKubernetesResources(KubernetesResources.QUEUES)
                .resource(JSON.convertValue(queue, GenericKubernetesResource.class)).create();
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
    void theQueueOfTheSchedulingPolicyIsKeptAndTheJobSucceedsInIt(KubernetesClient client) {
        // given: the dist-mnist TFJob in queue research, which the scheduler-plugins PodGroup cannot carry
        TrainingJobs jobs = new TrainingJobs(client, TrainingOperatorOnRealControlPlane.NAMESPACE);
        ObjectNode tfJob = TrainingJobs.withCpu(TestingJobs.example(TestingJobs.TF_DIST_MNIST, "default", "research-mnist"), "1");
        TestingJobs.schedulingPolicy(tfJob).put("queue", "research");

        // when
        try (GangWatch watch = new GangWatch(jobs, List.of("research-mnist"))) {
            jobs.submit(tfJob);

            // then: the operator's PodGroup, and beside it the bridge's Volcano one with the queue, which
            // Muster schedules (it writes the status of the PodGroups it schedules only)
            await().atMost(RUN).until(() -> jobs.coschedulingPodGroup("research-mnist").isPresent()
                    && jobs.volcanoPodGroup("research-mnist").isPresent());
            JsonNode mirror = JSON.valueToTree(jobs.volcanoPodGroup("research-mnist").orElseThrow());
            assertThat(mirror.path("spec").path("queue").asText()).isEqualTo("research");
            assertThat(mirror.path("spec").path("minMember").asInt()).isEqualTo(4);
            assertThat(mirror.path("metadata").path("labels").path(KubeflowApi.MIRROR_OF).asText()).isEqualTo("scheduling.x-k8s.io");
            await().atMost(RUN).until(() -> jobs.hasCondition(TrainingKind.TFJOB, "research-mnist", "Succeeded"));
            assertThat(jobs.pods("research-mnist")).allMatch(pod -> "muster".equals(pod.getSpec().getSchedulerName()));
            assertThat(watch.longestHalfBound()).isLessThan(Duration.ofSeconds(1));
        }
        JsonNode scheduled = JSON.valueToTree(jobs.volcanoPodGroup("research-mnist").orElseThrow());
        assertThat(scheduled.path("status").path("phase").asText()).isIn("Running", "Completed", "Inqueue");
    }

    @Test
    void aGangThatCannotBePlacedSaysWhyOnTheJobAndTimesOut(KubernetesClient client) {
        // given: a PyTorchJob whose two pods each ask for 6 cpu, more than a node has, and a 5 s schedule timeout
        TrainingJobs jobs = new TrainingJobs(client, TrainingOperatorOnRealControlPlane.NAMESPACE);
        ObjectNode pyTorchJob = TrainingJobs.withCpu(TestingJobs.example(TestingJobs.PYTORCH_CPU_DEMO, "default", "too-big"), "6");
        TestingJobs.schedulingPolicy(pyTorchJob).put("scheduleTimeoutSeconds", 5);

        // when
        jobs.submit(pyTorchJob);

        // then: Muster's reason and the timeout, as Events on the PyTorchJob itself
        await().atMost(RUN).until(() -> reasons(jobs.bridgeEvents("too-big")).containsKey(TrainingJobWriter.TIMEOUT_REASON));
        assertThat(jobs.bridgeEvents("too-big")).filteredOn(event -> event.getReason().equals(TrainingJobWriter.PENDING_REASON))
                .extracting(Event::getMessage).isNotEmpty().allSatisfy(message -> assertThat(message).startsWith("Muster: ").contains("cpu"));
        assertThat(reasons(jobs.bridgeEvents("too-big")).get(TrainingJobWriter.TIMEOUT_REASON))
                .startsWith("gang of 2 not placed within scheduleTimeoutSeconds=5 (0 of 2 pods bound)");
        assertThat(jobs.bridgeEvents("too-big")).allMatch(event -> event.getInvolvedObject().getKind().equals("PyTorchJob"));
        assertThat(jobs.pods("too-big")).noneMatch(TrainingJobs::bound);
    }

    @Test
    void anElasticPyTorchJobStartsAtItsMinimumWhenOnlyThatFits(KubernetesClient client) {
        // given: one node held by a pod of 3 cpu, and the elastic echo example (two Workers, minReplicas 1)
        // asking 3 cpu a Worker: its maximum does not fit, its minimum does
        TrainingJobs jobs = new TrainingJobs(client, TrainingOperatorOnRealControlPlane.NAMESPACE);
        client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("holder").endMetadata()
                .withNewSpec().withSchedulerName("muster").addNewContainer().withName("hold").withImage("busybox")
                .withNewResources().addToRequests("cpu", new Quantity("3")).endResources().endContainer().endSpec().build()).create();
        await().atMost(RUN).until(() -> TrainingJobs.bound(client.pods().inNamespace("default").withName("holder").get()));
        ObjectNode elastic = TrainingJobs.withCpu(TestingJobs.example(TestingJobs.PYTORCH_ELASTIC_ECHO, "default", "elastic-echo"), "3");

        // when
        jobs.submit(elastic);

        // then: the operator's PodGroup asks for both Workers; the bridge's asks for one and its cpu, which runs, and
        // the job succeeds as an elastic job does once a Worker has
        await().atMost(RUN).until(() -> jobs.volcanoPodGroup("elastic-echo").isPresent());
        assertThat(JSON.valueToTree(jobs.coschedulingPodGroup("elastic-echo").orElseThrow()).path("spec").path("minMember").asInt())
                .isEqualTo(2);
        assertThat(JSON.valueToTree(jobs.volcanoPodGroup("elastic-echo").orElseThrow()).path("spec").path("minMember").asInt())
                .isEqualTo(1);
        // and the resources of that gang, where the operator's counts both Workers: Muster's enqueue gate checks the minimum
        assertThat(JSON.valueToTree(jobs.coschedulingPodGroup("elastic-echo").orElseThrow()).path("spec").path("minResources")
                .path("cpu").asText()).isEqualTo("6");
        assertThat(JSON.valueToTree(jobs.volcanoPodGroup("elastic-echo").orElseThrow()).path("spec").path("minResources")
                .path("cpu").asText()).isEqualTo("3");
        await().atMost(RUN).until(() -> jobs.hasCondition(TrainingKind.PYTORCHJOB, "elastic-echo", "Succeeded"));
        client.pods().inNamespace("default").withName("holder").delete();
    }

    private static Map<String, String> reasons(List<Event> events) {
        return events.stream().collect(java.util.stream.Collectors.toMap(Event::getReason, Event::getMessage, (first, second) -> first));
    }
}
