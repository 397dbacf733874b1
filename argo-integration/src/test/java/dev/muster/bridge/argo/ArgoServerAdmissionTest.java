package dev.muster.bridge.argo;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.bridge.argo.server.ArgoServerSettings;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
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
 * Workflow admission with an Argo Server configured ({@link ArgoBridgeModule#server}): Muster resumes an admitted
 * workflow through the real {@code argo server}'s resume call rather than by patching it, beside the real workflow
 * controller, KWOK and Muster on a real kube-apiserver.
 */
@WithRealControlPlane(nodes = 2, nodeCpu = "4", nodeMemory = "16Gi")
class ArgoServerAdmissionTest {
    private static final Duration RUN = Duration.ofMinutes(3);
    private static final Path OUT = Path.of("target", "argo-server-admission");
    private static ArgoServerOnRealControlPlane server;
    private static ArgoOnRealControlPlane argo;

    @BeforeAll
    static void startArgo(RealControlPlane controlPlane) throws InterruptedException, IOException {
        Files.createDirectories(OUT);
        ArgoOnRealControlPlane.prepareCluster(controlPlane.client());
        server = ArgoServerOnRealControlPlane.start(controlPlane, OUT);
        argo = ArgoOnRealControlPlane.start(controlPlane, OUT,
                List.of(ArgoBridgeModule.server(new ArgoServerSettings(server.url(), Optional.of(controlPlane.admin().token())))));
    }

    @AfterAll
    static void stopArgo() {
        if (argo != null) {
            argo.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void keepTheLogs(TestInfo test) throws IOException {
        Files.writeString(OUT.resolve(test.getDisplayName().replaceAll("\\W+", "-") + ".peers.log"),
                argo.peerLogs() + "\n--- argo server\n" + server.peerLogs(), UTF_8);
    }

    @Test
    void anAdmittedWorkflowIsResumedThroughTheArgoServerAndSucceeds(KubernetesClient client) throws IOException {
        // when
        ArgoFanOutGangTest.submit(client, "server-admitted.yaml");

        // then: it runs to the end, marked admitted, and the Argo Server answered its resume
        await().atMost(RUN).untilAsserted(() -> assertThat(ArgoFanOutGangTest.phase(client, "server-admitted")).isEqualTo("Succeeded"));
        GenericKubernetesResource workflow = client.genericKubernetesResources(ArgoApi.WORKFLOWS).inNamespace("default")
                .withName("server-admitted").get();
        assertThat(workflow.getMetadata().getAnnotations()).containsKey(AdmissionAnnotations.ADMITTED);
        // the server logs each HTTP request it served, with its path and method (in no fixed order on the line)
        assertThat(Files.readAllLines(server.log())).anySatisfy(line -> assertThat(line).contains("msg=\"HTTP request\"")
                .contains(" path=/api/v1/workflows/default/server-admitted/resume").contains(" method=PUT"));
    }
}
