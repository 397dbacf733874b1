package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kubernetes API server on 127.0.0.1: fabric8's CRUD mock behind {@link ApiServerDispatcher}, with
 * the CRDs of {@code deploy/crds.yaml} registered and kube-apiserver's four namespaces created. It keeps
 * everything in memory and checks no credentials; it is for one machine, not for a network.
 */
public final class EmbeddedApiServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedApiServer.class);
    private static final String CRDS = "crds.yaml";
    private static final byte[] LOOPBACK = {127, 0, 0, 1};
    private final ApiHttpServer server;
    private final String url;

    private EmbeddedApiServer(ApiHttpServer server) {
        this.server = requireNonNull(server, "server is null");
        this.url = "http://127.0.0.1:" + server.port();
    }

    /**
     * Starts serving on 127.0.0.1 and registers Muster's CRDs.
     *
     * @param port the port, or 0 for any free one
     * @throws UncheckedIOException when the port cannot be bound
     */
    public static EmbeddedApiServer start(int port) {
        InetAddress loopback;
        try {
            loopback = InetAddress.getByAddress(LOOPBACK);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ApiHttpServer server = ApiHttpServer.start(loopback, port, new ApiServerDispatcher(List.of(), new ObjectMapper(), Clock.systemUTC()));
        EmbeddedApiServer started = new EmbeddedApiServer(server);
        try (KubernetesClient client = started.newClient()) {
            // the namespaces kube-apiserver creates at start (its system namespaces controller)
            for (String namespace : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
                client.resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
            }
            try (InputStream crds = EmbeddedApiServer.class.getResourceAsStream(CRDS)) {
                requireNonNull(crds, "BUG: " + CRDS + " is not on the class path");
                for (HasMetadata crd : client.load(crds).items()) {
                    client.resource(crd).create();
                }
            }
        } catch (IOException e) {
            started.close();
            throw new UncheckedIOException(e);
        }
        log.info("API server serving on {}", started.url);
        return started;
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String url() {
        return url;
    }

    public int port() {
        return server.port();
    }

    /**
     * A new client of this server. It does not retry failed requests itself, as Muster's clients must
     * not (Muster's retry policy is the one retry layer).
     */
    public KubernetesClient newClient() {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(url)
                .withNamespace("default")
                .withRequestRetryBackoffLimit(0)
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /**
     * Writes a kubeconfig whose current context is this server, creating the folder if needed. It is
     * written beside the path and moved onto it, so kubectl or a test that reads the path while
     * {@code muster up} starts reads the old kubeconfig or the new one, never half of one.
     */
    public void writeKubeconfig(Path path) throws IOException {
        Path target = path.toAbsolutePath();
        Files.createDirectories(target.getParent());
        Path written = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
        try {
            Files.writeString(written, kubeconfig(), StandardCharsets.UTF_8);
            Files.move(written, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(written);
        }
    }

    private String kubeconfig() {
        return """
                # written by muster up: the embedded API server, valid while it runs
                apiVersion: v1
                kind: Config
                clusters:
                - name: muster
                  cluster: {server: "%s"}
                users:
                - name: muster
                  user: {}
                contexts:
                - name: muster
                  context: {cluster: muster, user: muster, namespace: default}
                current-context: muster
                """.formatted(url);
    }

    @Override
    public void close() {
        server.close();
        log.info("API server on {} stopped", url);
    }
}
