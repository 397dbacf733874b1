package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Errors are answered with kube-apiserver's Status: its reason, code and a message naming the resource and object. */
class StatusAnswerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PODS = "/api/v1/namespaces/default/pods";

    @TempDir
    static Path folder;

    private static EmbeddedApiServer server;
    private static HttpClient http;
    private static Path kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedApiServer.start(0);
        http = TestingHttp.builder(server).version(HttpClient.Version.HTTP_1_1).build();
        kubeconfig = folder.resolve("kubeconfig");
        server.writeKubeconfig(kubeconfig);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aMissingObjectIsNotFoundByResourceAndName() throws Exception {
        JsonNode pod = status(send("GET", PODS + "/nobody", null), 404);
        JsonNode podGroup = status(send("DELETE", "/apis/scheduling.volcano.sh/v1beta1/namespaces/default/podgroups/nobody", null), 404);
        TestingKubectl.Result kubectl = TestingKubectl.run(kubeconfig, "get", "pod", "nobody");

        assertThat(pod.path("reason").asText()).isEqualTo("NotFound");
        assertThat(pod.path("message").asText()).isEqualTo("pods \"nobody\" not found");
        assertThat(pod.path("details").path("name").asText()).isEqualTo("nobody");
        assertThat(pod.path("details").path("kind").asText()).isEqualTo("pods");
        assertThat(podGroup.path("message").asText()).isEqualTo("podgroups.scheduling.volcano.sh \"nobody\" not found");
        assertThat(podGroup.path("details").path("group").asText()).isEqualTo("scheduling.volcano.sh");
        assertThat(kubectl.output()).isEqualTo("Error from server (NotFound): pods \"nobody\" not found");
    }

    @Test
    void creatingWhatExistsIsAlreadyExists() throws Exception {
        send("POST", PODS, pod("twice"));

        JsonNode again = status(send("POST", PODS, pod("twice")), 409);
        TestingKubectl.Result kubectl = TestingKubectl.run(kubeconfig, "run", "twice", "--image=busybox");

        assertThat(again.path("reason").asText()).isEqualTo("AlreadyExists");
        assertThat(again.path("message").asText()).isEqualTo("pods \"twice\" already exists");
        assertThat(kubectl.output()).isEqualTo("Error from server (AlreadyExists): pods \"twice\" already exists");
    }

    @Test
    void anUpdateFromAStaleVersionIsAConflict() throws Exception {
        send("POST", PODS, pod("stale"));

        JsonNode conflict = status(send("PUT", PODS + "/stale", """
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "stale", "resourceVersion": "1"},
                 "spec": {"containers": [{"name": "main", "image": "other"}]}}"""), 409);

        assertThat(conflict.path("reason").asText()).isEqualTo("Conflict");
        assertThat(conflict.path("message").asText()).isEqualTo("Operation cannot be fulfilled on pods \"stale\": the object has been "
                + "modified; please apply your changes to the latest version and try again");
    }

    @Test
    void anObjectWithoutANameIsInvalidWithTheCause() throws Exception {
        JsonNode invalid = status(send("POST", PODS, """
                {"apiVersion": "v1", "kind": "Pod", "metadata": {}, "spec": {"containers": [{"name": "main", "image": "busybox"}]}}"""), 422);

        assertThat(invalid.path("reason").asText()).isEqualTo("Invalid");
        assertThat(invalid.path("message").asText())
                .isEqualTo("Pod \"\" is invalid: metadata.name: Required value: name or generateName is required");
        JsonNode cause = invalid.path("details").path("causes").path(0);
        assertThat(cause.path("reason").asText()).isEqualTo("FieldValueRequired");
        assertThat(cause.path("field").asText()).isEqualTo("metadata.name");
    }

    @Test
    void aBodyThatIsNotJsonIsABadRequestAndStoresNothing() throws Exception {
        JsonNode pod = status(send("POST", PODS, "{not json"), 400);
        JsonNode configMap = status(send("POST", "/api/v1/namespaces/default/configmaps", "{not json"), 400);

        assertThat(pod.path("reason").asText()).isEqualTo("BadRequest");
        assertThat(configMap.path("reason").asText()).isEqualTo("BadRequest");
        assertThat(JSON.readTree(send("GET", "/api/v1/namespaces/default/configmaps", null).body()).path("items")).isEmpty();
    }

    @Test
    void bindingABoundPodIsAConflictOnTheBinding() throws Exception {
        send("POST", PODS, pod("bound"));
        String binding = """
                {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "bound"}, "target": {"kind": "Node", "name": "node-%s"}}""";
        send("POST", PODS + "/bound/binding", binding.formatted(1));

        JsonNode conflict = status(send("POST", PODS + "/bound/binding", binding.formatted(2)), 409);

        assertThat(conflict.path("reason").asText()).isEqualTo("Conflict");
        assertThat(conflict.path("message").asText())
                .isEqualTo("Operation cannot be fulfilled on pods/binding \"bound\": pod bound is already assigned to node \"node-1\"");
    }

    @Test
    void listsAreNamedByTheirKind() throws Exception {
        JsonNode pods = JSON.readTree(send("GET", PODS, null).body());
        JsonNode podGroups = JSON.readTree(send("GET", "/apis/scheduling.volcano.sh/v1beta1/podgroups?limit=10", null).body());
        // the scheduler lists scheduler-plugins' PodGroups too, so they are served, not 404
        HttpResponse<String> coscheduling = send("GET", "/apis/scheduling.x-k8s.io/v1alpha1/podgroups?resourceVersion=0", null);

        assertThat(pods.path("kind").asText()).isEqualTo("PodList");
        assertThat(pods.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(podGroups.path("kind").asText()).isEqualTo("PodGroupList");
        assertThat(podGroups.path("apiVersion").asText()).isEqualTo("scheduling.volcano.sh/v1beta1");
        assertThat(coscheduling.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(coscheduling.body()).path("apiVersion").asText()).isEqualTo("scheduling.x-k8s.io/v1alpha1");
    }

    @Test
    void aCreatedPodIsPendingWithItsQosClassWhateverStatusTheClientSent() throws Exception {
        JsonNode created = JSON.readTree(send("POST", PODS, """
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "defaulted"},
                 "spec": {"containers": [{"name": "main", "image": "busybox", "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}}]},
                 "status": {"phase": "Running"}}""").body());

        assertThat(created.path("status").path("phase").asText()).isEqualTo("Pending");
        assertThat(created.path("status").path("qosClass").asText()).isEqualTo("Guaranteed");
        assertThat(created.path("metadata").path("uid").asText()).isNotEmpty();
        assertThat(created.path("metadata").path("creationTimestamp").asText()).isNotEmpty();
    }

    private static JsonNode status(HttpResponse<String> response, int code) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(code);
        JsonNode status = JSON.readTree(response.body());
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("status").asText()).isEqualTo("Failure");
        assertThat(status.path("code").asInt()).isEqualTo(code);
        return status;
    }

    private static String pod(String name) {
        return """
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "%s"}, "spec": {"containers": [{"name": "main", "image": "busybox"}]}}"""
                .formatted(name);
    }

    private static HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + path)).header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
