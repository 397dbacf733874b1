package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code pods/NAME/log} on the embedded server: the simulated container's lines, and kube-apiserver's and the kubelet's errors. */
class PodLogsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant STARTED = Instant.parse("2026-12-02T01:00:00Z");

    private static EmbeddedApiServer server;
    private static KubernetesClient client;
    private static Path kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
        kubeconfig = Files.createTempFile("pod-logs", ".yaml");
        server.writeKubeconfig(kubeconfig);
        pod("finished", "main");
        bindAndWrite("finished", """
                {"status": {"phase": "Succeeded", "containerStatuses": [{"name": "main", "image": "busybox", "ready": false,
                  "state": {"terminated": {"exitCode": 3, "reason": "Error", "startedAt": "2026-12-02T01:00:00Z",
                  "finishedAt": "2026-12-02T01:05:00Z"}}}]}}""");
        pod("two", "first", "second");
        pod("waiting", "main");
        bindAndWrite("waiting", "{\"status\": {}}");
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        server.close();
        Files.deleteIfExists(kubeconfig);
    }

    @Test
    void kubectlLogsPrintsTheLinesOfTheSimulatedContainerWithTheirTimesOnRequest() throws Exception {
        TestingKubectl.Result logs = TestingKubectl.run(kubeconfig, "logs", "finished");
        TestingKubectl.Result stamped = TestingKubectl.run(kubeconfig, "logs", "finished", "--timestamps", "--tail=1");

        assertThat(logs.exitCode()).isZero();
        assertThat(logs.output()).isEqualTo("""
                muster: simulated container "main" of pod default/finished started on node node-1 (image busybox)
                muster: simulated container "main" exited with code 3 (Error)""");
        assertThat(stamped.output()).isEqualTo("2026-12-02T01:05:00.000000000Z muster: simulated container \"main\" exited with code 3 (Error)");
        assertThat(client.pods().withName("finished").inContainer("main").getLog()).startsWith("muster: simulated container \"main\"");
    }

    @Test
    void sinceTimeAndLimitBytesCutTheLog() throws Exception {
        assertThat(get("/api/v1/namespaces/default/pods/finished/log?sinceTime=" + STARTED.plusSeconds(1)).body())
                .isEqualTo("muster: simulated container \"main\" exited with code 3 (Error)\n");
        assertThat(get("/api/v1/namespaces/default/pods/finished/log?limitBytes=6").body()).isEqualTo("muster");
    }

    @Test
    void errorsAreKubeApiServersAndTheKubeletsStatuses() throws Exception {
        assertThat(status("/api/v1/namespaces/default/pods/absent/log")).isEqualTo("404 NotFound pods \"absent\" not found");
        assertThat(status("/api/v1/namespaces/default/pods/two/log"))
                .isEqualTo("400 BadRequest a container name must be specified for pod two, choose one of: [first second]");
        assertThat(status("/api/v1/namespaces/default/pods/finished/log?container=other"))
                .isEqualTo("400 BadRequest container other is not valid for pod finished");
        assertThat(status("/api/v1/namespaces/default/pods/finished/log?previous=true"))
                .isEqualTo("400 BadRequest previous terminated container \"main\" in pod \"finished\" not found");
        assertThat(status("/api/v1/namespaces/default/pods/waiting/log"))
                .isEqualTo("400 BadRequest container \"main\" in pod \"waiting\" is waiting to start: ContainerCreating");
        assertThat(status("/api/v1/namespaces/default/pods/finished/log?tailLines=x"))
                .isEqualTo("400 BadRequest tailLines 'x' is not a whole number");
        HttpResponse<String> unbound = get("/api/v1/namespaces/default/pods/two/log?container=first");
        assertThat(unbound.statusCode()).isEqualTo(200);
        assertThat(unbound.body()).isEmpty();
    }

    private static void pod(String name, String... containers) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata().withNewSpec().endSpec();
        for (String container : containers) {
            pod.editSpec().addNewContainer().withName(container).withImage("busybox").endContainer().endSpec();
        }
        client.resource(pod.build()).create();
    }

    private static void bindAndWrite(String name, String status) {
        client.pods().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\": {\"nodeName\": \"node-1\"}}");
        client.pods().withName(name).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), status);
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return TestingHttp.client(server).send(HttpRequest.newBuilder(URI.create(server.url() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String status(String path) throws Exception {
        HttpResponse<String> response = get(path);
        JsonNode status = JSON.readTree(response.body());
        return response.statusCode() + " " + status.path("reason").asText() + " " + status.path("message").asText();
    }
}
