package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import dev.muster.peers.RealControlPlane;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The embedded server and a real kube-apiserver side by side, for tests that run one client scenario
 * against both and compare what the client observes. The embedded server is started by the test
 * class; the real one comes from {@code @WithRealControlPlane}.
 */
final class TestingServers implements AutoCloseable {
    private final EmbeddedApiServer embedded;
    private final KubernetesClient embeddedClient;
    private final Path embeddedKubeconfig;

    private TestingServers(EmbeddedApiServer embedded, Path embeddedKubeconfig) {
        this.embedded = requireNonNull(embedded, "embedded is null");
        this.embeddedClient = embedded.newClient();
        this.embeddedKubeconfig = requireNonNull(embeddedKubeconfig, "embeddedKubeconfig is null");
    }

    static TestingServers start() {
        EmbeddedApiServer server = EmbeddedApiServer.start(0);
        try {
            Path kubeconfig = Files.createTempFile("embedded-kubeconfig", ".yaml");
            server.writeKubeconfig(kubeconfig);
            return new TestingServers(server, kubeconfig);
        } catch (IOException e) {
            server.close();
            throw new UncheckedIOException(e);
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

    @Override
    public void close() {
        embeddedClient.close();
        embedded.close();
        try {
            Files.deleteIfExists(embeddedKubeconfig);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
