package dev.muster.bridge.argo;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.plugins.dag.DagAnnotations;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real Argo workflow controller, KWOK and Muster's runtime on a real kube-apiserver, one node of 4
 * cpu: Argo's DAG diamond, each task estimated at a minute, waits for room, and the PodGroup of its
 * ready task carries the {@code dag} plugin's annotations; a workflow whose {@code depends} does not
 * parse beside it gets an event and does not hold the diamond up.
 */
@WithRealControlPlane(nodes = 1, nodeCpu = "4", nodeMemory = "16Gi")
class ArgoDagHintsTest {
    private static final Duration RUN = Duration.ofMinutes(3);
    private static final Path OUT = Path.of("target", "argo-dag-runs");
    private static ArgoOnRealControlPlane argo;

    @BeforeAll
    static void startArgo(RealControlPlane controlPlane) throws InterruptedException, IOException {
        argo = ArgoOnRealControlPlane.start(controlPlane, Files.createDirectories(OUT));
    }

    @AfterAll
    static void stopArgo() {
        if (argo != null) {
            argo.close();
        }
    }

    @AfterEach
    void keepTheRun(KubernetesClient client) throws IOException {
        // the Workflows as Argo left them, and the peers' logs: a record of the run
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        for (GenericKubernetesResource workflow : client.genericKubernetesResources(ArgoApi.WORKFLOWS).inNamespace("default").list()
                .getItems()) {
            Files.writeString(OUT.resolve(workflow.getMetadata().getName() + ".yaml"), yaml.writeValueAsString(workflow), UTF_8);
        }
        Files.writeString(OUT.resolve("peers.log"), argo.peerLogs(), UTF_8);
    }

    @Test
    void theReadyTaskOfADiamondCarriesItsRemainingCriticalPathAndABadDagIsAnEvent(KubernetesClient client) {
        // given: a pod that holds the node's 4 cpu
        Pod blocker = client.pods().inNamespace("default").resource(new PodBuilder()
                .withNewMetadata().withName("blocker").endMetadata()
                .withNewSpec().withSchedulerName("muster").addNewContainer().withName("main").withImage("busybox")
                .withNewResources().withRequests(Map.of("cpu", new Quantity("4"))).endResources().endContainer().endSpec()
                .build()).create();
        await().atMost(RUN).until(() -> ArgoFanOutGangTest.nodeName(client.pods().resource(blocker).get()) != null);

        // when
        ArgoFanOutGangTest.submit(client, "dag-bad-depends.yaml");
        ArgoFanOutGangTest.submit(client, "dag-diamond.yaml");

        // then: A, the one ready task, waits in a PodGroup that says A -> B -> D is left, 3 minutes
        await().atMost(RUN).untilAsserted(() -> assertThat(podGroupOf(client, "dag-diamond.A")).hasValueSatisfying(podGroup ->
                assertThat(podGroup.getMetadata().getAnnotations())
                        .containsEntry(DagAnnotations.DAG, "default/dag-diamond")
                        .containsEntry(DagAnnotations.NODE, "dag-diamond.A")
                        .containsEntry(DagAnnotations.REMAINING_PATH, "180")));
        assertThat(ArgoFanOutGangTest.pods(client, "dag-diamond")).singleElement()
                .satisfies(pod -> assertThat(ArgoFanOutGangTest.nodeName(pod)).isNull());
        await().atMost(RUN).untilAsserted(() -> assertThat(ArgoFanOutGangTest.warnings(client, "dag-bad-depends")).singleElement()
                .satisfies(event -> assertThat(event.getReason()).isEqualTo(GangWriter.DAG_PROBLEM_REASON))
                .satisfies(event -> assertThat(event.getMessage()).isEqualTo("template 'diamond', task 'B': dag.tasks[1].depends: 'A &&': "
                        + "expected a task name, '!' or '(', found the end at column 5; it runs without DAG hints")));

        // when: the blocker goes
        client.pods().resource(blocker).withGracePeriod(0).delete();

        // then: the diamond runs to the end; Argo itself refuses the other one
        await().atMost(RUN).untilAsserted(() -> assertThat(ArgoFanOutGangTest.phase(client, "dag-diamond")).isEqualTo("Succeeded"));
        assertThat(ArgoFanOutGangTest.pods(client, "dag-diamond")).hasSize(4);
        await().atMost(RUN).untilAsserted(() -> assertThat(ArgoFanOutGangTest.phase(client, "dag-bad-depends")).isIn("Error", "Failed"));
    }

    /** The PodGroup named by the pod of an Argo node, once the pod names one. */
    private static Optional<GenericKubernetesResource> podGroupOf(KubernetesClient client, String nodeName) {
        List<Pod> pods = ArgoFanOutGangTest.pods(client, "dag-diamond").stream()
                .filter(pod -> nodeName.equals(pod.getMetadata().getAnnotations().get("workflows.argoproj.io/node-name")))
                .toList();
        if (pods.size() != 1 || pods.get(0).getMetadata().getAnnotations().get(SchedulingApi.GROUP_NAME_ANNOTATION) == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(client.genericKubernetesResources(PodGroupManifests.POD_GROUPS).inNamespace("default")
                .withName(pods.get(0).getMetadata().getAnnotations().get(SchedulingApi.GROUP_NAME_ANNOTATION)).get());
    }
}
