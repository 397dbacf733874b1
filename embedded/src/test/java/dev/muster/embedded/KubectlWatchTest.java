package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real kubectl watches the embedded server over HTTPS (HTTP/2), as it watches kube-apiserver. */
class KubectlWatchTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    static Path folder;

    private static EmbeddedApiServer server;
    private static KubernetesClient client;
    private static Path kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
        kubeconfig = folder.resolve("kubeconfig");
        server.writeKubeconfig(kubeconfig);
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void getWithWatchPrintsTheListedPodsThenEachChange() {
        // given
        namespace("watched");
        client.pods().inNamespace("watched").resource(pod("listed", "a")).create();

        try (TestingKubectl kubectl = TestingKubectl.start(kubeconfig, "get", "pods", "-n", "watched", "-w")) {
            await().atMost(PATIENCE).until(() -> kubectl.output().stream().anyMatch(line -> line.startsWith("listed ")));

            // when
            client.pods().inNamespace("watched").resource(pod("created-later", "a")).create();

            // then
            await().atMost(PATIENCE).untilAsserted(() -> assertThat(kubectl.output())
                    .anyMatch(line -> line.startsWith("created-later ")));
            assertThat(kubectl.output()).first().asString().startsWith("NAME");
            assertThat(kubectl.output()).noneMatch(line -> line.contains("rejected") || line.contains("error"));
            assertThat(kubectl.isAlive()).as("kubectl keeps watching").isTrue();
        }
    }

    @Test
    void getWithWatchAndALabelSelectorPrintsOnlyThePodsItSelects() {
        // given
        namespace("selected");
        client.pods().inNamespace("selected").resource(pod("listed", "wanted")).create();
        try (TestingKubectl kubectl = TestingKubectl.start(kubeconfig, "get", "pods", "-n", "selected", "-l", "app=wanted", "-w",
                "--output-watch-events")) {
            await().atMost(PATIENCE).until(() -> kubectl.output().stream().anyMatch(line -> line.contains("listed")));

            // when: an unselected pod first, then a selected one: a watch sends events in order
            client.pods().inNamespace("selected").resource(pod("unwanted", "other")).create();
            client.pods().inNamespace("selected").resource(pod("wanted", "wanted")).create();

            // then
            await().atMost(PATIENCE).untilAsserted(() -> assertThat(kubectl.output()).anyMatch(line -> line.matches("ADDED\\s+wanted .*")));
            assertThat(kubectl.output()).noneMatch(line -> line.contains("unwanted"));
        }
    }

    @Test
    void waitReturnsOnceThePodBecomesReady() throws Exception {
        // given
        client.resource(pod("becomes-ready", "a")).create();

        try (TestingKubectl kubectl = TestingKubectl.start(kubeconfig, "wait", "--for=condition=Ready", "pod/becomes-ready",
                "--timeout=60s", "-v=6")) {
            // kubectl logs each request once its answer has begun: the pod becomes ready after its watch is open
            await().atMost(PATIENCE).until(() -> kubectl.output().stream()
                    .anyMatch(line -> line.contains("GET ") && line.contains("watch=true") && line.contains(" 200 OK")));

            // when
            client.pods().withName("becomes-ready").subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), """
                    {"status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}}""");

            // then
            TestingKubectl.Result result = kubectl.waitFor();
            assertThat(result.output()).contains("pod/becomes-ready condition met");
            assertThat(result.exitCode()).isZero();
        }
    }

    private static void namespace(String name) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
    }

    private static Pod pod(String name, String app) {
        return new PodBuilder().withNewMetadata().withName(name).addToLabels("app", app).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec()
                .build();
    }
}
