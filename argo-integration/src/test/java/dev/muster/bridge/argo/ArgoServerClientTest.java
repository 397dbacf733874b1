package dev.muster.bridge.argo;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.bridge.argo.server.ArgoServerClient;
import dev.muster.bridge.argo.server.ArgoServerException;
import dev.muster.bridge.argo.server.ArgoServerSettings;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The client generated from Argo's OpenAPI document ({@link ArgoServerClient}) against the real {@code argo
 * server} v4.0.5 in {@code --auth-mode client}, beside the real workflow controller, KWOK and Muster on a
 * real kube-apiserver: it reads, lists, resumes and suspends workflows as the controller then honours, and
 * its failures name the server, the call and Argo's own words.
 */
@WithRealControlPlane(nodes = 2, nodeCpu = "4", nodeMemory = "16Gi")
class ArgoServerClientTest {
    private static final Duration RUN = Duration.ofMinutes(3);
    private static final Path OUT = Path.of("target", "argo-server-runs");
    private static ArgoOnRealControlPlane argo;
    private static ArgoServerOnRealControlPlane server;

    @BeforeAll
    static void startArgo(RealControlPlane controlPlane) throws InterruptedException, IOException {
        Files.createDirectories(OUT);
        argo = ArgoOnRealControlPlane.start(controlPlane, OUT);
        server = ArgoServerOnRealControlPlane.start(controlPlane, OUT);
    }

    @AfterAll
    static void stopArgo() {
        if (server != null) {
            server.close();
        }
        if (argo != null) {
            argo.close();
        }
    }

    @AfterEach
    void keepTheLogs(TestInfo test) throws IOException {
        Files.writeString(OUT.resolve(test.getDisplayName().replaceAll("\\W+", "-") + ".peers.log"),
                argo.peerLogs() + "\n--- argo server\n" + server.peerLogs(), UTF_8);
    }

    @Test
    void aWorkflowSubmittedSuspendedIsListedReadAndRunsOnceResumedThroughTheServer(RealControlPlane controlPlane, KubernetesClient client) {
        // given
        ArgoServerClient argoServer = ArgoServerClient.create(new ArgoServerSettings(server.url(), Optional.of(controlPlane.admin().token())));
        ArgoFanOutGangTest.submit(client, "server-held.yaml");

        // then: the server lists it (by its label too) and reads it, suspended, and no pod of it is made
        assertThat(argoServer.list("default", Optional.of("muster.dev/test=argo-server")))
                .extracting(workflow -> workflow.path("metadata").path("name").asText()).containsExactly("server-held");
        JsonNode held = argoServer.get("default", "server-held").orElseThrow();
        assertThat(held.path("spec").path("suspend").asBoolean()).isTrue();
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .until(() -> client.pods().inNamespace("default").withLabel(ArgoApi.WORKFLOW_LABEL, "server-held").list().getItems().isEmpty());

        // when
        JsonNode resumed = argoServer.resume("default", "server-held");

        // then: the server cleared spec.suspend, and the controller runs it to the end under Muster
        assertThat(resumed.path("spec").has("suspend")).isFalse();
        await().atMost(RUN).untilAsserted(() -> assertThat(ArgoFanOutGangTest.phase(client, "server-held")).isEqualTo("Succeeded"));
        assertThat(argoServer.get("default", "server-held").orElseThrow().path("status").path("phase").asText()).isEqualTo("Succeeded");
    }

    @Test
    void aRunningWorkflowSuspendedThroughTheServerIsSuspendedInKubernetes(RealControlPlane controlPlane, KubernetesClient client) {
        // given: a workflow whose pod cannot fit, so it stays Running
        ArgoServerClient argoServer = ArgoServerClient.create(new ArgoServerSettings(server.url(), Optional.of(controlPlane.admin().token())));
        ArgoFanOutGangTest.submit(client, "server-waiting.yaml");
        await().atMost(RUN).untilAsserted(() -> assertThat(ArgoFanOutGangTest.phase(client, "server-waiting")).isEqualTo("Running"));

        // when
        JsonNode suspended = argoServer.suspend("default", "server-waiting");

        // then
        assertThat(suspended.path("spec").path("suspend").asBoolean()).isTrue();
        GenericKubernetesResource stored = client.genericKubernetesResources(ArgoApi.WORKFLOWS).inNamespace("default")
                .withName("server-waiting").get();
        assertThat(((Map<?, ?>) stored.getAdditionalProperties().get("spec")).get("suspend")).isEqualTo(true);
    }

    @Test
    void aWorkflowTheServerDoesNotHaveIsEmpty(RealControlPlane controlPlane) {
        ArgoServerClient argoServer = ArgoServerClient.create(new ArgoServerSettings(server.url(), Optional.of(controlPlane.admin().token())));

        assertThat(argoServer.get("default", "never-submitted")).isEmpty();
    }

    @Test
    void aTokenWithoutTheRightIsRefusedWithArgosWordsAndTheSettingToCheck(RealControlPlane controlPlane) {
        ArgoServerClient unprivileged = ArgoServerClient.create(new ArgoServerSettings(server.url(),
                Optional.of(controlPlane.unprivilegedUser().token())));

        assertThatThrownBy(() -> unprivileged.list("default", Optional.empty()))
                .isInstanceOf(ArgoServerException.class)
                .hasMessageStartingWith("Argo Server at " + server.url() + ": list default answered 403 (check argo.server-token): ")
                .hasMessageContaining("Permission denied, you are not allowed to list workflows in namespace \"default\"");
    }

    @Test
    void noTokenIsRefusedAsUnauthorized() {
        ArgoServerClient anonymous = ArgoServerClient.create(new ArgoServerSettings(server.url(), Optional.empty()));

        assertThatThrownBy(anonymous::version)
                .isInstanceOf(ArgoServerException.class)
                .hasMessageStartingWith("Argo Server at " + server.url() + ": version answered 401 (check argo.server-token): ")
                .satisfies(e -> assertThat(((ArgoServerException) e).status()).hasValue(401));
    }
}
