package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded server serves HTTPS as a cluster's API server does: clients that trust its CA (its own
 * clients, the kubeconfig it writes) verify it, by IP and by name, and speak HTTP/2 to it by ALPN; a
 * client that does not trust the CA is refused at the handshake.
 */
class EmbeddedHttpsTest {
    @TempDir
    static Path folder;

    private static EmbeddedApiServer server;
    private static Path kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedApiServer.start(0);
        kubeconfig = folder.resolve("kubeconfig");
        server.writeKubeconfig(kubeconfig);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aClientTrustingTheCaIsServedByAddressAndByNameOverHttp2() throws Exception {
        for (String url : new String[] {server.url(), "https://localhost:" + server.port()}) {
            // when
            HttpResponse<String> version = TestingHttp.client(server).send(HttpRequest.newBuilder(URI.create(url + "/version")).build(),
                    HttpResponse.BodyHandlers.ofString());

            // then
            assertThat(version.statusCode()).as(url).isEqualTo(200);
            assertThat(version.version()).as(url).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(version.body()).as(url).contains("\"gitVersion\"");
        }
        assertThat(server.url()).startsWith("https://127.0.0.1:");
    }

    @Test
    void aClientTrustingOnlyTheSystemsCasIsRefusedAtTheHandshake() {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + "/version")).build();

        assertThatThrownBy(() -> HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(SSLHandshakeException.class);
    }

    @Test
    void theServersOwnClientsTrustIt() {
        try (KubernetesClient client = server.newClient()) {
            assertThat(client.getMasterUrl().toString()).startsWith("https://");
            assertThat(client.namespaces().withName("kube-system").get()).isNotNull();
        }
    }

    @Test
    void kubectlVerifiesTheServerWithTheKubeconfigsCa() throws Exception {
        // given: the same kubeconfig naming another CA than the server's
        ServingCertificate other = ServingCertificate.generate(Clock.systemUTC());
        String written = Files.readString(kubeconfig, StandardCharsets.UTF_8);
        String authority = written.replaceAll("(?s).*certificate-authority-data: ([A-Za-z0-9+/=]+).*", "$1");
        assertThat(authority).isNotEqualTo(written).isNotEqualTo(other.authorityData());
        Path wrongAuthority = folder.resolve("wrong-authority");
        Files.writeString(wrongAuthority, written.replace(authority, other.authorityData()), StandardCharsets.UTF_8);

        // when
        TestingKubectl.Result trusted = TestingKubectl.run(kubeconfig, "get", "namespaces", "-o", "name");
        TestingKubectl.Result refused = TestingKubectl.run(wrongAuthority, "get", "namespaces", "-o", "name");

        // then
        assertThat(trusted.exitCode()).as(trusted.output()).isZero();
        assertThat(trusted.output()).contains("namespace/kube-system");
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.output()).contains("x509: certificate signed by unknown authority");
    }

    @Test
    void eachStartMakesItsOwnCa() {
        try (EmbeddedApiServer another = EmbeddedApiServer.start(0)) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(another.url() + "/version")).build();
            assertThatThrownBy(() -> TestingHttp.client(server).send(request, HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(SSLHandshakeException.class);
        }
    }

    @Test
    void aPlainHttpServerSaysSoInItsAddressAndKubeconfig() throws Exception {
        try (EmbeddedApiServer plain = EmbeddedApiServer.startPlainHttp(0)) {
            Path written = folder.resolve("plain");
            plain.writeKubeconfig(written);

            assertThat(plain.url()).startsWith("http://127.0.0.1:");
            assertThat(Files.readString(written, StandardCharsets.UTF_8)).doesNotContain("certificate-authority-data");
            TestingKubectl.Result listed = TestingKubectl.run(written, "get", "namespaces", "-o", "name");
            assertThat(listed.exitCode()).as(listed.output()).isZero();
        }
    }
}
