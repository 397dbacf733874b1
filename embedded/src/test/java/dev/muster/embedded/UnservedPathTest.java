package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A path the server does not serve is answered as kube-apiserver answers it: 404 and a NotFound Status, never data. */
class UnservedPathTest {
    private static final String SECRET = "c2VjcmV0LXZhbHVl";

    @TempDir
    static Path folder;

    private static EmbeddedApiServer server;
    private static KubernetesClient client;
    private static HttpClient http;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
        http = TestingHttp.builder(server).version(HttpClient.Version.HTTP_1_1).build();
        client.resource(new SecretBuilder().withNewMetadata().withName("credentials").endMetadata().addToData("password", SECRET).build())
                .create();
        client.resource(new PodBuilder().withNewMetadata().withName("logged").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec().build()).create();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    static Stream<Arguments> unservedPaths() {
        return Stream.of(
                Arguments.of("metrics, which kube-apiserver serves but this server does not", "GET", "/metrics"),
                Arguments.of("a path outside the API", "GET", "/no/such/path"),
                Arguments.of("a resource no API version has", "GET", "/api/v1/namespaces/default/widgets"),
                Arguments.of("a group nobody registered", "GET", "/apis/unknown.example.com/v1/things"),
                Arguments.of("a deletion under an unknown resource", "DELETE", "/api/v1/namespaces/default/widgets"),
                Arguments.of("a subresource the server does not have", "GET", "/api/v1/namespaces/default/secrets/credentials/proxy"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unservedPaths")
    void isNotFoundWithAStatusAndNoData(String description, String method, String path) throws Exception {
        HttpResponse<String> response = send(method, path);

        assertThat(response.statusCode()).isEqualTo(404);
        JsonNode status = new ObjectMapper().readTree(response.body());
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("reason").asText()).isEqualTo("NotFound");
        assertThat(status.path("code").asInt()).isEqualTo(404);
        assertThat(status.path("message").asText()).isEqualTo("the server could not find the requested resource");
        assertThat(response.body()).doesNotContain(SECRET, "credentials");
        assertThat(client.secrets().withName("credentials").get()).isNotNull();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("healthChecks")
    void healthChecksAnswerOkAsKubeApiserversDo(String path) throws Exception {
        HttpResponse<String> response = send("GET", path);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("ok");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
    }

    static Stream<String> healthChecks() {
        return Stream.of("/healthz", "/livez", "/readyz");
    }

    @Test
    void kubectlLogsOfAPodOnNoNodePrintsAnEmptyLogAndNoData() throws Exception {
        Path kubeconfig = folder.resolve("kubeconfig");
        server.writeKubeconfig(kubeconfig);

        TestingKubectl.Result result = TestingKubectl.run(kubeconfig, "logs", "logged");

        // as kube-apiserver answers for a pod no kubelet runs yet (KubeletRealApiServerTest); the mock answered with the store
        assertThat(result.exitCode()).isZero();
        assertThat(result.output()).isEmpty();
    }

    private static HttpResponse<String> send(String method, String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + path)).method(method, HttpRequest.BodyPublishers.noBody())
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
