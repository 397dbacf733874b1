package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.plugins.dag.DagAnnotations;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Argo workflow controller against {@code muster up --peer argo}: Argo's DAG diamond, its tasks
 * estimated at a minute each, waits for room on a full node, and the PodGroup of its one ready task, A,
 * carries the {@code dag} plugin's annotations with the three minutes of A, B (or C) and D left; once
 * there is room the workflow runs to Succeeded.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ArgoDagOnMusterUpTest {
    private static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir
    Path directory;

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(WAIT);

    @Test
    void theReadyTaskOfAWaitingDiamondCarriesItsRemainingCriticalPath() throws Exception {
        // given: muster up with one node of 4 CPUs, all held by a pod that runs until deleted, and Argo's controller
        KubernetesClient client = up.start(directory, "--nodes", "1:cpu=4,memory=16Gi", "--peer", "argo");
        Pod blocker = client.pods().inNamespace("default").resource(new PodBuilder()
                .withNewMetadata().withName("blocker").endMetadata()
                .withNewSpec().withSchedulerName("muster").addNewContainer().withName("main").withImage("busybox")
                .withNewResources().withRequests(Map.of("cpu", new Quantity("4"))).endResources().endContainer().endSpec()
                .build()).create();
        await().atMost(WAIT).until(() -> client.pods().resource(blocker).get().getSpec().getNodeName() != null);

        // when
        try (InputStream in = ArgoDagOnMusterUpTest.class.getResourceAsStream("/argo/dag-diamond.yaml")) {
            for (HasMetadata workflow : client.load(in).items()) {
                client.genericKubernetesResources(ArgoObjects.WORKFLOWS).inNamespace("default").resource((GenericKubernetesResource) workflow).create();
            }
        }

        // then: A waits, in a PodGroup that says A -> B -> D is left, 180 s
        await().atMost(WAIT).untilAsserted(() -> assertThat(podGroupOf(client, "dag-diamond.A")).hasValueSatisfying(podGroup ->
                assertThat(podGroup.getMetadata().getAnnotations())
                        .containsEntry(DagAnnotations.DAG, "default/dag-diamond")
                        .containsEntry(DagAnnotations.NODE, "dag-diamond.A")
                        .containsEntry(DagAnnotations.REMAINING_PATH, "180")));
        assertThat(pods(client)).singleElement().satisfies(pod -> assertThat(pod.getSpec().getNodeName()).isNull());

        // when: the blocker goes
        client.pods().resource(blocker).withGracePeriod(0).delete();

        // then
        await().atMost(WAIT).untilAsserted(() -> assertThat(ArgoObjects.phase(client, "dag-diamond")).isEqualTo("Succeeded"));
        assertThat(pods(client)).hasSize(4);
    }

    private static List<Pod> pods(KubernetesClient client) {
        return client.pods().inNamespace("default").withLabel("workflows.argoproj.io/workflow", "dag-diamond").list().getItems();
    }

    /** The PodGroup named by the pod of an Argo node, once the pod names one. */
    private static Optional<GenericKubernetesResource> podGroupOf(KubernetesClient client, String nodeName) {
        List<Pod> pods = pods(client).stream()
                .filter(pod -> nodeName.equals(pod.getMetadata().getAnnotations().get("workflows.argoproj.io/node-name")))
                .toList();
        if (pods.size() != 1 || pods.get(0).getMetadata().getAnnotations().get(SchedulingApi.GROUP_NAME_ANNOTATION) == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(client.genericKubernetesResources(VolcanoObjects.POD_GROUPS).inNamespace("default")
                .withName(pods.get(0).getMetadata().getAnnotations().get(SchedulingApi.GROUP_NAME_ANNOTATION)).get());
    }
}
