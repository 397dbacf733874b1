package dev.muster.embedded;

import dev.muster.peers.RealControlPlane;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The embedded server and a real kube-apiserver side by side, for tests that run one client scenario
 * against both and compare what the client observes. A test class registers it
 * ({@code @RegisterExtension static final TestingServers servers = new TestingServers();}): it starts
 * the embedded server before the class's tests and stops it after them. The real server comes from
 * {@code @WithRealControlPlane}.
 */
final class TestingServers implements BeforeAllCallback, AfterAllCallback {
    private EmbeddedApiServer embedded;
    private KubernetesClient embeddedClient;
    private Path embeddedKubeconfig;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        embedded = EmbeddedApiServer.start(0);
        embeddedClient = embedded.newClient();
        embeddedKubeconfig = Files.createTempFile("embedded-kubeconfig", ".yaml");
        embedded.writeKubeconfig(embeddedKubeconfig);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (embeddedClient != null) {
            embeddedClient.close();
        }
        if (embedded != null) {
            embedded.close();
        }
        if (embeddedKubeconfig != null) {
            Files.deleteIfExists(embeddedKubeconfig);
        }
    }

    /** One server as a client sees it: a client and a kubeconfig for kubectl. */
    record Side(String name, KubernetesClient client, Path kubeconfig) {
        @Override
        public String toString() {
            return name;
        }
    }

    Side embedded() {
        return new Side("embedded", embeddedClient, embeddedKubeconfig);
    }

    static Side real(RealControlPlane controlPlane) {
        return new Side("kube-apiserver " + RealControlPlane.KUBERNETES_VERSION, controlPlane.client(), controlPlane.kubeconfig());
    }

    /** The embedded server's address, for requests no client library sends. */
    String url() {
        return embedded.url();
    }

    /** A JDK HTTP client trusting the embedded server, for those requests. */
    HttpClient http() {
        return TestingHttp.client(embedded);
    }

    /** The embedded side, then the real one. */
    List<Side> both(RealControlPlane controlPlane) {
        return List.of(embedded(), real(controlPlane));
    }

    /** Writes a manifest to a temporary file, for {@code kubectl apply -f}. */
    static Path manifest(String yaml) {
        try {
            Path file = Files.createTempFile("manifest", ".yaml");
            Files.writeString(file, yaml);
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
