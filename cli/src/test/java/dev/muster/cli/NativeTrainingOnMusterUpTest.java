package dev.muster.cli;

import static dev.muster.cli.TrainingObjects.condition;
import static dev.muster.cli.TrainingObjects.context;
import static dev.muster.cli.TrainingObjects.events;
import static dev.muster.cli.TrainingObjects.example;
import static dev.muster.cli.TrainingObjects.job;
import static dev.muster.cli.TrainingObjects.pod;
import static dev.muster.cli.TrainingObjects.podGroup;
import static dev.muster.cli.TrainingObjects.pods;
import static dev.muster.cli.TrainingObjects.renamed;
import static dev.muster.cli.TrainingObjects.status;
import static dev.muster.cli.TrainingObjects.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Native mode on {@code muster up} WITHOUT the training operator: Muster's own controller makes the job's Volcano
 * PodGroup, and once Muster admits it, the pods and headless Services; Muster binds the gang whole, the simulated
 * kubelet ends the pods, and the controller writes the job's conditions. The examples are {@code kubeflow-bridge}'s
 * copies of the operator's v1.9.0 examples (origin in that module's {@code src/test/resources/examples/README.md}),
 * given 1 cpu per pod and a {@code muster.dev/duration}.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class NativeTrainingOnMusterUpTest {
    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path directory;

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(WAIT);

    @Test
    void theDistMnistTfJobIsGangBoundWholeAndSucceedsWithoutTheOperator() throws Exception {
        // given
        KubernetesClient client = up.start(directory, "--nodes", "2:cpu=8,memory=32Gi");
        String name = "dist-mnist-for-e2e-test";

        // when
        submit(client, example("tf-dist-mnist.yaml", "3s"));

        // then: the PodGroup is the whole job, owned by it
        // (made before any pod, and deleted once the job is finished, while the pods run 3 s)
        await().atMost(WAIT).until(() -> podGroup(client, name).isPresent());
        GenericKubernetesResource podGroup = podGroup(client, name).orElseThrow();
        assertThat(podGroup.<Object>get("spec", "minMember")).isEqualTo(4);
        assertThat(podGroup.<Object>get("spec", "queue")).isEqualTo("default");
        assertThat(podGroup.<Object>get("spec", "minResources")).as("minResources: four pods of 1 cpu").isEqualTo(Map.of("cpu", "4"));
        assertThat(podGroup.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(List.of(owner.getKind(), owner.getName())).containsExactly("TFJob", name));
        await().atMost(WAIT).untilAsserted(() -> assertThat(status(client, "tfjobs", name, "Succeeded")).as("Succeeded").isEqualTo("True"));
        JsonNode condition = condition(client, "tfjobs", name, "Succeeded").orElseThrow();
        assertThat(condition.path("reason").asText()).isEqualTo("TFJobSucceeded");
        assertThat(condition.path("message").asText()).isEqualTo("TFJob default/" + name + " successfully completed.");
        assertThat(status(client, "tfjobs", name, "Created")).isEqualTo("True");
        // native mode is on without the operator, and it is what ran the job
        assertThat(up.output()).contains("kubeflow-native (");
        assertThat(events(client, name)).filteredOn(event -> event.getReason().equals("TFJobSucceeded"))
                .extracting(event -> event.getSource().getComponent()).containsExactly("muster-kubeflow-native");
        JsonNode jobStatus = job(client, "tfjobs", name).path("status");
        assertThat(jobStatus.path("startTime").asText()).isNotEmpty();
        assertThat(jobStatus.path("completionTime").asText()).isNotEmpty();
        List<Pod> pods = pods(client, name);
        assertThat(pods).extracting(pod -> pod.getMetadata().getName())
                .containsExactlyInAnyOrder(name + "-chief-0", name + "-ps-0", name + "-worker-0", name + "-worker-1");
        assertThat(pods).allSatisfy(pod -> {
            assertThat(pod.getMetadata().getAnnotations()).containsEntry(SchedulingApi.GROUP_NAME_ANNOTATION, name);
            assertThat(pod.getSpec().getNodeName()).isNotEmpty();
            assertThat(pod.getSpec().getContainers().get(0).getEnv()).anySatisfy(env -> assertThat(env.getName()).isEqualTo("TF_CONFIG"));
        });
        assertThat(client.services().inNamespace("default").withLabel("training.kubeflow.org/job-name", name).list().getItems())
                .hasSize(4).allSatisfy(service -> assertThat(service.getSpec().getClusterIP()).isEqualTo("None"));
        assertBoundWhole(pods);
    }

    @Test
    void aGangWhoseMinResourcesTheClusterCannotHoldIsNotAdmittedSoNoPodIsMade() throws Exception {
        // given: 2 cpus in all; the dist-mnist job's four pods ask 1 cpu each, beyond what the overcommit plugin admits (2 x 1.2)
        KubernetesClient client = up.start(directory, "--nodes", "1:cpu=2,memory=32Gi");
        String name = "dist-mnist-for-e2e-test";

        // when
        submit(client, example("tf-dist-mnist.yaml", "3s"));

        // then: the PodGroup asks 4 cpus, Muster's enqueue action does not admit it, and native mode makes no pod meanwhile
        await().atMost(WAIT).until(() -> podGroup(client, name).isPresent());
        assertThat(podGroup(client, name).orElseThrow().<Object>get("spec", "minResources")).isEqualTo(Map.of("cpu", "4"));
        await().atMost(WAIT).until(() -> events(client, name).stream().anyMatch(event -> event.getReason().equals("Unschedulable")));
        assertThat(events(client, name)).filteredOn(event -> event.getReason().equals("Unschedulable")).first()
                .satisfies(event -> assertThat(event.getMessage()).contains("has not admitted PodGroup " + name));
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(podGroup(client, name).orElseThrow().<Object>get("status", "phase")).as("phase").isEqualTo("Pending");
            assertThat(pods(client, name)).as("pods").isEmpty();
        });
    }

    @Test
    void aPyTorchJobIsGangBoundWholeAndSucceedsWhenItsMasterDoes() throws Exception {
        // given
        KubernetesClient client = up.start(directory, "--nodes", "2:cpu=8,memory=32Gi");
        String name = "torchrun-cpu";

        // when
        submit(client, example("pytorch-cpu-demo.yaml", "3s"));

        // then
        await().atMost(WAIT).untilAsserted(() -> assertThat(status(client, "pytorchjobs", name, "Succeeded")).as("Succeeded").isEqualTo("True"));
        assertThat(condition(client, "pytorchjobs", name, "Succeeded").orElseThrow().path("message").asText())
                .isEqualTo("PyTorchJob " + name + " is successfully completed.");
        List<Pod> pods = pods(client, name);
        assertThat(pods).extracting(pod -> pod.getMetadata().getName()).containsExactlyInAnyOrder(name + "-master-0", name + "-worker-0");
        assertThat(pods).allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isNotEmpty());
        assertBoundWhole(pods);

        // and deleting the job deletes what it owns
        client.genericKubernetesResources(context("pytorchjobs")).inNamespace("default").withName(name).delete();
        await().atMost(WAIT).until(() -> pods(client, name).isEmpty()
                && client.services().inNamespace("default").withLabel("training.kubeflow.org/job-name", name).list().getItems().isEmpty());
    }

    @Test
    void aWorkerKilledBySignalIsMadeAgainUnderTheExitCodePolicyAndTheJobStillSucceeds() throws Exception {
        // given: the Master runs 8 s; the Worker ends after 1 s with exit code 137 (a signal), retryable under ExitCode
        KubernetesClient client = up.start(directory, "--nodes", "2:cpu=8,memory=32Gi");
        String name = "torchrun-cpu";
        ObjectNode job = example("pytorch-cpu-demo.yaml", "8s");
        ObjectNode worker = (ObjectNode) job.path("spec").path("pytorchReplicaSpecs").path("Worker");
        worker.put("restartPolicy", "ExitCode");
        ((ObjectNode) worker.path("template").path("metadata").path("annotations")).put("muster.dev/duration", "1s")
                .put("muster.dev/exit-code", "137");

        // when
        submit(client, job);

        // then: the failed Worker is deleted and made again (a new uid under the same name), and the job says it restarts
        await().atMost(WAIT).until(() -> pod(client, name + "-worker-0").isPresent());
        String firstUid = pod(client, name + "-worker-0").orElseThrow().getMetadata().getUid();
        await().atMost(WAIT).until(() -> pod(client, name + "-worker-0").map(pod -> !pod.getMetadata().getUid().equals(firstUid)).orElse(false));
        await().atMost(WAIT).until(() -> events(client, name).stream().anyMatch(event -> event.getReason().equals("PyTorchJobRestarting")));
        assertThat(events(client, name)).filteredOn(event -> event.getReason().equals("PyTorchJobRestarting")).first()
                .satisfies(event -> {
                    assertThat(event.getType()).isEqualTo("Warning");
                    assertThat(event.getMessage()).isEqualTo("job " + name + " is restarting because Worker replica(s) failed.");
                });
        await().atMost(WAIT).untilAsserted(() -> assertThat(status(client, "pytorchjobs", name, "Succeeded")).as("Succeeded").isEqualTo("True"));
        assertThat(status(client, "pytorchjobs", name, "Failed")).isEqualTo("none");
    }

    @Test
    void aTfJobWithNegativeReplicasGetsNothingButAConditionAndAnEventNamingTheField() throws Exception {
        // given
        KubernetesClient client = up.start(directory, "--nodes", "2:cpu=8,memory=32Gi");
        String name = "dist-mnist-for-e2e-test";
        ObjectNode job = example("tf-dist-mnist.yaml", "3s");
        ((ObjectNode) job.path("spec").path("tfReplicaSpecs").path("Worker")).put("replicas", -2);

        // when
        submit(client, job);

        // then
        await().atMost(WAIT).until(() -> events(client, name).stream().anyMatch(event -> event.getReason().equals("TFJobFailedValidation")));
        assertThat(events(client, name)).filteredOn(event -> event.getReason().equals("TFJobFailedValidation")).first()
                .satisfies(event -> assertThat(event.getMessage()).contains("spec.tfReplicaSpecs.Worker.replicas"));
        await().atMost(WAIT).until(() -> status(client, "tfjobs", name, "Invalid").equals("True"));
        assertThat(condition(client, "tfjobs", name, "Invalid").orElseThrow().path("message").asText())
                .contains("spec.tfReplicaSpecs.Worker.replicas");
        assertThat(pods(client, name)).isEmpty();
        assertThat(podGroup(client, name)).isEmpty();
        assertThat(client.services().inNamespace("default").withLabel("training.kubeflow.org/job-name", name).list().getItems()).isEmpty();
    }

    @Test
    void jobsManagedByAnotherControllerAreLeftAloneAndSaidSoWhileOthersRun() throws Exception {
        // given: a TFJob MultiKueue manages, one naming a controller the operator does not know (and negative Worker replicas,
        // which would be bad input for a job of ours), and a job of ours
        KubernetesClient client = up.start(directory, "--nodes", "2:cpu=8,memory=32Gi");
        ObjectNode multiKueue = renamed(example("tf-dist-mnist.yaml", "3s"), "mnist-multikueue");
        multiKueue.withObjectProperty("spec").withObjectProperty("runPolicy").put("managedBy", "kueue.x-k8s.io/multikueue");
        ObjectNode unknown = renamed(example("tf-dist-mnist.yaml", "3s"), "mnist-unknown");
        unknown.withObjectProperty("spec").withObjectProperty("runPolicy").put("managedBy", "example.com/other");
        ((ObjectNode) unknown.path("spec").path("tfReplicaSpecs").path("Worker")).put("replicas", -1);
        ObjectNode ours = renamed(example("tf-dist-mnist.yaml", "3s"), "mnist-ours");

        // when
        submit(client, multiKueue);
        submit(client, unknown);
        submit(client, ours);

        // then: each left alone gets one Event saying why (a Warning naming the field and the value it does not know)
        await().atMost(WAIT).until(() -> events(client, "mnist-multikueue").stream().anyMatch(event -> event.getReason().equals("TFJobManagedElsewhere"))
                && events(client, "mnist-unknown").stream().anyMatch(event -> event.getReason().equals("TFJobManagedElsewhere")));
        assertThat(events(client, "mnist-multikueue")).singleElement().satisfies(event -> {
            assertThat(event.getType()).isEqualTo("Normal");
            assertThat(event.getMessage()).contains("kueue.x-k8s.io/multikueue").contains("spec.runPolicy.managedBy");
        });
        assertThat(events(client, "mnist-unknown")).singleElement().satisfies(event -> {
            assertThat(event.getType()).isEqualTo("Warning");
            assertThat(event.getMessage()).contains("TFJob default/mnist-unknown").contains("spec.runPolicy.managedBy 'example.com/other'");
        });
        // and the job of ours runs meanwhile
        await().atMost(WAIT).untilAsserted(() -> assertThat(status(client, "tfjobs", "mnist-ours", "Succeeded")).as("Succeeded").isEqualTo("True"));
        for (String name : List.of("mnist-multikueue", "mnist-unknown")) {
            JsonNode job = job(client, "tfjobs", name);
            assertThat(job.path("metadata").path("name").asText()).as("%s is still there", name).isEqualTo(name);
            assertThat(job.path("status").path("conditions")).as("%s's conditions", name).isEmpty();
            assertThat(job.path("spec").path("runPolicy").path("suspend").asBoolean(false)).as("%s suspended", name).isFalse();
            assertThat(podGroup(client, name)).as("%s's PodGroup", name).isEmpty();
            assertThat(pods(client, name)).as("%s's pods", name).isEmpty();
            assertThat(client.services().inNamespace("default").withLabel("training.kubeflow.org/job-name", name).list().getItems())
                    .as("%s's Services", name).isEmpty();
        }
    }

    @Test
    void twoTfJobsThatDoNotFitTogetherRunOneAfterTheOtherEachBoundWhole() throws Exception {
        // given: 8 cpus in all, and two dist-mnist jobs of 4 pods that ask 2 cpus each: either fits alone, not both
        KubernetesClient client = up.start(directory, "--nodes", "2:cpu=4,memory=32Gi");
        ObjectNode first = renamed(example("tf-dist-mnist.yaml", "3s"), "mnist-a");
        ObjectNode second = renamed(example("tf-dist-mnist.yaml", "3s"), "mnist-b");
        for (ObjectNode job : List.of(first, second)) {
            for (JsonNode spec : job.path("spec").path("tfReplicaSpecs")) {
                for (JsonNode container : spec.path("template").path("spec").path("containers")) {
                    ((ObjectNode) container.path("resources").path("requests")).put("cpu", "2");
                }
            }
        }

        // when: both at once
        submit(client, first);
        submit(client, second);

        // then: both succeed, neither held part of the cluster while the other ran
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(status(client, "tfjobs", "mnist-a", "Succeeded")).as("mnist-a Succeeded").isEqualTo("True");
            assertThat(status(client, "tfjobs", "mnist-b", "Succeeded")).as("mnist-b Succeeded").isEqualTo("True");
        });
        List<Pod> a = pods(client, "mnist-a");
        List<Pod> b = pods(client, "mnist-b");
        assertThat(a).hasSize(4);
        assertThat(b).hasSize(4);
        assertBoundWhole(a);
        assertBoundWhole(b);
        assertThat(lastEnd(a).isAfter(firstStart(b)) && lastEnd(b).isAfter(firstStart(a)))
                .as("the jobs ran at the same time: a %s..%s, b %s..%s", firstStart(a), lastEnd(a), firstStart(b), lastEnd(b)).isFalse();
    }

    @Test
    void theGpuPyTorchMnistExampleGetsOneGpuPerPodAndSucceeds() throws Exception {
        // given: two nodes of one GPU each; the example asks one GPU per pod as a limit only, as it is written
        KubernetesClient client = up.start(directory, "--nodes", "2:cpu=8,memory=32Gi,nvidia.com/gpu=1");
        String name = "pytorch-dist-mnist-nccl";

        // when
        submit(client, example("pytorch-mnist-nccl.yaml", "3s"));

        // then: the Master and the Worker each take a node's GPU, bound together, and the job succeeds
        await().atMost(WAIT).untilAsserted(() -> assertThat(status(client, "pytorchjobs", name, "Succeeded")).as("Succeeded").isEqualTo("True"));
        List<Pod> pods = pods(client, name);
        assertThat(pods).extracting(pod -> pod.getMetadata().getName()).containsExactlyInAnyOrder(name + "-master-0", name + "-worker-0");
        assertThat(pods).extracting(pod -> pod.getSpec().getNodeName()).doesNotHaveDuplicates().doesNotContainNull();
        assertThat(pods).allSatisfy(pod -> assertThat(pod.getSpec().getContainers().get(0).getResources().getRequests())
                .containsKey("nvidia.com/gpu"));
        assertBoundWhole(pods);
    }

    @Test
    void anElasticPyTorchJobStartsAtItsMinimumWhenTheClusterHasRoomForNoMore() throws Exception {
        // given: room for one worker of 1 cpu; the elastic echo example asks 2 Workers, elasticPolicy 1..2
        KubernetesClient client = up.start(directory, "--nodes", "1:cpu=1,memory=32Gi");
        String name = "elastic-example-echo";

        // when
        submit(client, example("pytorch-elastic-echo.yaml", "60s"));

        // then: its gang is its minimum, so it starts with one Worker instead of waiting for room for both
        await().atMost(WAIT).until(() -> podGroup(client, name).isPresent());
        await().atMost(WAIT).untilAsserted(() -> assertThat(podGroup(client, name).orElseThrow().<Object>get("spec", "minMember"))
                .as("the PodGroup's minMember").isEqualTo(1));
        await().atMost(WAIT).untilAsserted(() -> assertThat(pods(client, name))
                .filteredOn(pod -> "Running".equals(pod.getStatus().getPhase())).as("running Workers").hasSize(1));
        assertThat(pods(client, name)).filteredOn(pod -> pod.getSpec().getNodeName() != null).hasSize(1);
    }

    @Test
    void anElasticPyTorchJobGrowsTowardItsMaximumWhenRoomAppears() throws Exception {
        // given: one node of 2 cpus, one of them held by a pod that runs until deleted; the elastic echo example asks
        // 2 Workers of 1 cpu, elasticPolicy 1..2
        KubernetesClient client = up.start(directory, "--nodes", "1:cpu=2,memory=32Gi");
        String name = "elastic-example-echo";
        Pod blocker = client.pods().inNamespace("default").resource(new PodBuilder()
                .withNewMetadata().withName("blocker").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox")
                .withNewResources().withRequests(Map.of("cpu", new Quantity("1"))).endResources().endContainer().endSpec()
                .build()).create();
        await().atMost(WAIT).until(() -> client.pods().resource(blocker).get().getSpec().getNodeName() != null);

        // when
        submit(client, example("pytorch-elastic-echo.yaml", "60s"));

        // then: it starts at its minimum, one Worker, and the other waits while there is no room
        await().atMost(WAIT).untilAsserted(() -> assertThat(pods(client, name)).as("pods").hasSize(2)
                .filteredOn(pod -> "Running".equals(pod.getStatus().getPhase())).as("running Workers").hasSize(1));
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).untilAsserted(() -> assertThat(pods(client, name))
                .filteredOn(pod -> pod.getSpec().getNodeName() != null).as("bound Workers").hasSize(1));

        // when: room appears
        client.pods().resource(blocker).withGracePeriod(0).delete();

        // then: Muster places the second Worker, beyond the gang's minimum, and the job runs at its maximum
        await().atMost(WAIT).untilAsserted(() -> assertThat(pods(client, name))
                .filteredOn(pod -> "Running".equals(pod.getStatus().getPhase())).as("running Workers").hasSize(2));
        assertThat(podGroup(client, name).orElseThrow().<Object>get("spec", "minMember")).isEqualTo(1);
    }

    /** Every pod started before any pod ended. */
    private static void assertBoundWhole(List<Pod> pods) {
        Instant lastStart = starts(pods).max(Instant::compareTo).orElseThrow();
        Instant firstEnd = ends(pods).min(Instant::compareTo).orElseThrow();
        assertThat(lastStart).isBeforeOrEqualTo(firstEnd);
    }

    private static Instant firstStart(List<Pod> pods) {
        return starts(pods).min(Instant::compareTo).orElseThrow();
    }

    private static Instant lastEnd(List<Pod> pods) {
        return ends(pods).max(Instant::compareTo).orElseThrow();
    }

    private static Stream<Instant> starts(List<Pod> pods) {
        return pods.stream().map(pod -> Instant.parse(pod.getStatus().getStartTime()));
    }

    /** When each of the pods' containers that ended did. */
    private static Stream<Instant> ends(List<Pod> pods) {
        return pods.stream().flatMap(pod -> pod.getStatus().getContainerStatuses().stream())
                .filter(status -> status.getState().getTerminated() != null)
                .map(status -> Instant.parse(status.getState().getTerminated().getFinishedAt()));
    }
}
