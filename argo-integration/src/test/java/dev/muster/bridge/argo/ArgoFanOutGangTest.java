package dev.muster.bridge.argo;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The real Argo workflow controller, KWOK as the kubelet, and Muster's runtime with the bridge, on a
 * real kube-apiserver: an annotated fan-out is bound all or nothing and the workflow runs to Succeeded.
 * Three nodes of 4 cpu; each fan-out pod asks for 3, so one node holds one.
 */
@WithRealControlPlane(nodes = 3, nodeCpu = "4", nodeMemory = "16Gi")
class ArgoFanOutGangTest {
    private static final Duration RUN = Duration.ofMinutes(3);
    private static final Path OUT = Path.of("target", "argo-runs");
    private static ArgoOnRealControlPlane argo;

    @BeforeAll
    static void startArgo(RealControlPlane controlPlane) throws InterruptedException {
        argo = ArgoOnRealControlPlane.start(controlPlane, OUT);
    }

    @AfterAll
    static void stopArgo() {
        if (argo != null) {
            argo.close();
        }
    }

    @AfterEach
    void keepTheRun(KubernetesClient client, TestInfo test) throws IOException {
        // the Workflows as Argo left them: the source of the reader's test data, and a record of the run
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        for (GenericKubernetesResource workflow : client.genericKubernetesResources(ArgoApi.WORKFLOWS).inNamespace("default").list()
                .getItems()) {
            Files.writeString(OUT.resolve(workflow.getMetadata().getName() + ".yaml"), yaml.writeValueAsString(workflow), UTF_8);
        }
        Files.writeString(OUT.resolve(test.getDisplayName().replaceAll("\\W+", "-") + ".peers.log"), argo.peerLogs(), UTF_8);
    }

    @Test
    void aFanOutThatCannotFitWholeWaitsWholeThenRunsToSucceeded(KubernetesClient client) {
        // given: a pod that holds 3 of one node's 4 cpu, so two fan-out pods of three fit
        Pod blocker = client.pods().inNamespace("default").resource(new PodBuilder()
                .withNewMetadata().withName("blocker").endMetadata()
                .withNewSpec().withSchedulerName("muster").addNewContainer().withName("main").withImage("busybox")
                .withNewResources().withRequests(Map.of("cpu", new Quantity("3"))).endResources().endContainer().endSpec()
                .build()).create();
        await().atMost(RUN).until(() -> nodeName(client.pods().resource(blocker).get()) != null);

        // when
        submit(client, "steps-fan-out.yaml");

        // then: one PodGroup for the fan-out, owned by the Workflow, and its three pods name it and stay unbound
        await().atMost(RUN).untilAsserted(() -> assertThat(podGroups(client, "steps-fan-out")).hasSize(1));
        GenericKubernetesResource podGroup = onlyPodGroup(client, "steps-fan-out");
        await().atMost(RUN).untilAsserted(() -> assertThat(inGroup(client, "steps-fan-out", podGroup)).hasSize(3));
        assertThat(((Map<?, ?>) podGroup.getAdditionalProperties().get("spec")).get("minMember")).isEqualTo(3);
        // three pods of the template's 3 cpu
        assertThat(((Map<?, ?>) podGroup.getAdditionalProperties().get("spec")).get("minResources")).isEqualTo(Map.of("cpu", "9"));
        assertThat(podGroup.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getKind()).isEqualTo("Workflow"))
                .satisfies(owner -> assertThat(owner.getName()).isEqualTo("steps-fan-out"));
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(pods(client, "steps-fan-out")).allSatisfy(pod -> assertThat(nodeName(pod)).isNull()));

        // when: the blocker goes
        client.pods().resource(blocker).withGracePeriod(0).delete();

        // then: all three are bound, on three nodes, and the workflow succeeds
        await().atMost(RUN).untilAsserted(() -> assertThat(phase(client, "steps-fan-out")).isEqualTo("Succeeded"));
        assertThat(pods(client, "steps-fan-out")).hasSize(3).extracting(ArgoFanOutGangTest::nodeName).doesNotHaveDuplicates()
                .doesNotContainNull();
    }

    @Test
    void aMinAvailableThatIsNotANumberIsReportedAndTheWorkflowRunsWithoutAGang(KubernetesClient client) {
        // when
        submit(client, "bad-min-available.yaml");

        // then
        await().atMost(RUN).untilAsserted(() -> assertThat(phase(client, "bad-min-available")).isEqualTo("Succeeded"));
        assertThat(podGroups(client, "bad-min-available")).isEmpty();
        // the bridge let them go ungrouped (Muster's runtime then gives them an automatic group, as Volcano's does)
        assertThat(pods(client, "bad-min-available")).hasSize(2).allSatisfy(pod -> assertThat(pod.getMetadata().getAnnotations())
                .containsEntry(GangAnnotations.GANG, "false")
                .hasEntrySatisfying(SchedulingApi.GROUP_NAME_ANNOTATION, group -> assertThat(group).startsWith("podgroup-")));
        await().atMost(RUN).untilAsserted(() -> assertThat(warnings(client, "bad-min-available")).singleElement()
                .satisfies(event -> assertThat(event.getReason()).isEqualTo(GangWriter.PROBLEM_REASON))
                .satisfies(event -> assertThat(event.getMessage()).isEqualTo("template 'worker': metadata.annotations.muster.dev/min-available: "
                        + "'lots' is not a number; it runs without gang semantics")));
    }

    @Test
    void aDagTaskFanOutInANamedQueueIsOneGang(KubernetesClient client) {
        // given
        client.genericKubernetesResources(GangTerm.QUEUES).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion(SchedulingApi.VOLCANO_SCHEDULING).withKind("Queue").withNewMetadata().withName("argo-gangs").endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("weight", 1))).build()).serverSideApply();

        // when
        submit(client, "dag-fan-out.yaml");

        // then
        await().atMost(RUN).untilAsserted(() -> assertThat(phase(client, "dag-fan-out")).isEqualTo("Succeeded"));
        GenericKubernetesResource podGroup = onlyPodGroup(client, "dag-fan-out");
        Map<?, ?> spec = (Map<?, ?>) podGroup.getAdditionalProperties().get("spec");
        assertThat(spec.get("minMember")).isEqualTo(2);
        assertThat(spec.get("queue")).isEqualTo("argo-gangs");
        assertThat(inGroup(client, "dag-fan-out", podGroup)).hasSize(2)
                .allSatisfy(pod -> assertThat(pod.getMetadata().getAnnotations().get("workflows.argoproj.io/node-name"))
                        .startsWith("dag-fan-out.train("));
        assertThat(pods(client, "dag-fan-out")).hasSize(3);
    }

    @Test
    void aFanOutOverItsQueuesCapabilityIsNotAdmittedAndSaysWhyUntilTheQueueGrows(KubernetesClient client) throws IOException {
        // given: a queue of 1 cpu, and the DAG's fan-out (two pods of 1 cpu) in it
        queue(client, "argo-small", "1");
        GenericKubernetesResource workflow = read("dag-fan-out.yaml");
        workflow.getMetadata().setName("dag-over-capability");
        String text = new ObjectMapper().writeValueAsString(workflow).replace("\"muster.dev/queue\":\"argo-gangs\"", "\"muster.dev/queue\":\"argo-small\"");
        assertThat(text).contains("argo-small");

        // when
        client.genericKubernetesResources(ArgoApi.WORKFLOWS).inNamespace("default")
                .resource(new ObjectMapper().readValue(text, GenericKubernetesResource.class)).create();

        // then: the gang's PodGroup asks for 2 cpu and stays Pending, not admitted, naming the capability
        await().atMost(RUN).untilAsserted(() -> assertThat(podGroups(client, "dag-over-capability")).hasSize(1));
        await().atMost(RUN).untilAsserted(() -> {
            GenericKubernetesResource podGroup = onlyPodGroup(client, "dag-over-capability");
            assertThat(((Map<?, ?>) podGroup.getAdditionalProperties().get("spec")).get("minResources")).isEqualTo(Map.of("cpu", "2"));
            Map<?, ?> status = (Map<?, ?>) podGroup.getAdditionalProperties().get("status");
            assertThat(status).isNotNull();
            assertThat(status.get("phase")).isEqualTo("Pending");
            assertThat(String.valueOf(status.get("conditions"))).contains("not admitted to queue argo-small: minResources (cpu 2, memory 0) "
                    + "would take queue argo-small over its capability").contains("cpu 2 > 1");
        });
        GenericKubernetesResource podGroup = onlyPodGroup(client, "dag-over-capability");
        await().atMost(RUN).untilAsserted(() -> assertThat(inGroup(client, "dag-over-capability", podGroup)).hasSize(2));
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6)).untilAsserted(() ->
                assertThat(inGroup(client, "dag-over-capability", podGroup)).allSatisfy(pod -> assertThat(nodeName(pod)).isNull()));

        // when: the queue grows to the gang's size
        queue(client, "argo-small", "2");

        // then
        await().atMost(RUN).untilAsserted(() -> assertThat(phase(client, "dag-over-capability")).isEqualTo("Succeeded"));
    }

    private static void queue(KubernetesClient client, String name, String cpu) {
        client.genericKubernetesResources(GangTerm.QUEUES).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion(SchedulingApi.VOLCANO_SCHEDULING).withKind("Queue").withNewMetadata().withName(name).endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("weight", 1, "capability", Map.of("cpu", cpu)))).build())
                .forceConflicts().serverSideApply();
    }

    private static GenericKubernetesResource read(String file) {
        try (InputStream in = ArgoFanOutGangTest.class.getResourceAsStream("/submit/" + file)) {
            return new ObjectMapper(new YAMLFactory()).readValue(in, GenericKubernetesResource.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void submit(KubernetesClient client, String file) {
        client.genericKubernetesResources(ArgoApi.WORKFLOWS).inNamespace("default").resource(read(file)).create();
    }

    static String phase(KubernetesClient client, String workflow) {
        GenericKubernetesResource object = client.genericKubernetesResources(ArgoApi.WORKFLOWS).inNamespace("default").withName(workflow).get();
        Object status = object == null ? null : object.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map ? Objects.toString(map.get("phase"), "") : "";
    }

    static List<Pod> pods(KubernetesClient client, String workflow) {
        return client.pods().inNamespace("default").withLabel(ArgoApi.WORKFLOW_LABEL, workflow).list().getItems();
    }

    private static List<Pod> inGroup(KubernetesClient client, String workflow, GenericKubernetesResource podGroup) {
        return pods(client, workflow).stream()
                .filter(pod -> podGroup.getMetadata().getName().equals(pod.getMetadata().getAnnotations().get(SchedulingApi.GROUP_NAME_ANNOTATION)))
                .toList();
    }

    private static List<GenericKubernetesResource> podGroups(KubernetesClient client, String workflow) {
        return client.genericKubernetesResources(PodGroupManifests.POD_GROUPS).inNamespace("default")
                .withLabel(ArgoApi.WORKFLOW_LABEL, workflow).list().getItems();
    }

    private static GenericKubernetesResource onlyPodGroup(KubernetesClient client, String workflow) {
        List<GenericKubernetesResource> podGroups = podGroups(client, workflow);
        assertThat(podGroups).hasSize(1);
        return podGroups.get(0);
    }

    static List<Event> warnings(KubernetesClient client, String workflow) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getKind().equals(ArgoApi.WORKFLOW_KIND))
                .filter(event -> event.getInvolvedObject().getName().equals(workflow))
                .filter(event -> event.getType().equals("Warning"))
                .toList();
    }

    static String nodeName(Pod pod) {
        return pod == null ? null : pod.getSpec().getNodeName();
    }
}
