package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real Argo workflow controller against {@code muster up --peer argo}, which installs and starts it: the embedded server
 * serves what the controller asks of it (protobuf writes, access reviews, HTTP watches), the Argo
 * bridge makes each annotated fan-out one gang, and two fan-outs that cannot fit together run one
 * after the other, each bound whole.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ArgoOnMusterUpTest {
    private static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir
    Path directory;

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(WAIT);

    @ParameterizedTest(name = "--apiserver {0}")
    @ValueSource(strings = {"embedded", "real"})
    void twoFanOutsThatCannotFitTogetherRunOneAfterTheOtherEachBoundWhole(String apiServer) throws Exception {
        // given: muster up with two nodes of 8 CPUs, and Argo's controller watching it
        KubernetesClient client = up.start(directory, "--apiserver", apiServer, "--nodes", "2:cpu=8,memory=32Gi", "--peer", "argo");

        // when
        try (InputStream in = ArgoOnMusterUpTest.class.getResourceAsStream("/argo/fan-outs.yaml")) {
            for (HasMetadata workflow : client.load(in).items()) {
                client.genericKubernetesResources(ArgoObjects.WORKFLOWS).inNamespace("default").resource((GenericKubernetesResource) workflow).create();
            }
        }

        // then: both succeed
        await().atMost(WAIT).untilAsserted(() -> assertThat(List.of(ArgoObjects.phase(client, "first"), ArgoObjects.phase(client, "second")))
                .as("muster up's stdout names the controller's log").containsExactly("Succeeded", "Succeeded"));
        // each fan-out was one PodGroup of three, and its pods named it
        List<GenericKubernetesResource> podGroups = client.genericKubernetesResources(VolcanoObjects.POD_GROUPS).inNamespace("default")
                .list().getItems();
        assertThat(podGroups).hasSize(2).allSatisfy(podGroup -> assertThat(podGroup.<Object>get("spec", "minMember")).isEqualTo(3));
        List<Pod> pods = client.pods().inNamespace("default").withLabel(ArgoObjects.WORKFLOW_LABEL).list().getItems();
        assertThat(pods).hasSize(6).allSatisfy(pod -> assertThat(pod.getMetadata().getAnnotations())
                .containsKey(SchedulingApi.GROUP_NAME_ANNOTATION));
        // one fan-out ran after the other: no pod of the later one started before every pod of the earlier one ended
        assertThat(startedAfterTheOtherEnded(pods, "first", "second") || startedAfterTheOtherEnded(pods, "second", "first"))
                .as("the fan-outs overlapped: %s", pods.stream().map(pod -> pod.getMetadata().getName() + " "
                        + pod.getStatus().getStartTime()).toList()).isTrue();
    }

    private static boolean startedAfterTheOtherEnded(List<Pod> pods, String earlier, String later) {
        Instant earlierEnd = pods.stream().filter(pod -> ArgoObjects.workflow(pod).equals(earlier)).map(ArgoObjects::ended)
                .max(Instant::compareTo).orElseThrow();
        Instant laterStart = pods.stream().filter(pod -> ArgoObjects.workflow(pod).equals(later)).map(ArgoObjects::started)
                .min(Instant::compareTo).orElseThrow();
        return !laterStart.isBefore(earlierEnd);
    }
}
