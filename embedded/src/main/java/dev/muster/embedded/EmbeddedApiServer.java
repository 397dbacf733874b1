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
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kubernetes API server on 127.0.0.1: fabric8's CRUD mock behind {@link ApiServerDispatcher}, with
 * the CRDs of {@code deploy/crds.yaml} registered and kube-apiserver's four namespaces created, over HTTPS
 * as a cluster's API server is. It keeps everything in memory and checks no credentials; it is for one
 * machine, not for a network.
 */
public final class EmbeddedApiServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedApiServer.class);
    private static final String CRDS = "crds.yaml";
    private static final byte[] LOOPBACK = {127, 0, 0, 1};
    /**
     * The bearer token a kubeconfig of this server names. The server checks no credentials, but kubectl
     * asks for a user name and password on a terminal when an HTTPS server's kubeconfig gives it none.
     */
    static final String TOKEN = "muster-up";
    private final ApiHttpServer server;
    private final Optional<ServingCertificate> certificate;
    private final String url;

    private EmbeddedApiServer(ApiHttpServer server, Optional<ServingCertificate> certificate) {
        this.server = requireNonNull(server, "server is null");
        this.certificate = requireNonNull(certificate, "certificate is null");
        this.url = (certificate.isPresent() ? "https" : "http") + "://127.0.0.1:" + server.port();
    }

    /**
     * Starts serving HTTPS on 127.0.0.1, with a CA and serving certificate made for this start (see
     * {@link ServingCertificate}), and registers Muster's CRDs. Its clients and kubeconfig trust that CA.
     *
     * @param port the port, or 0 for any free one
     * @throws UncheckedIOException when the port cannot be bound
     */
    public static EmbeddedApiServer start(int port) {
        return start(port, RequestInterceptor.NONE);
    }

    /**
     * As {@link #start(int)}, each client request shown to {@code interceptor} first, which may answer
     * it with a failure instead (see {@link RequestInterceptor}).
     */
    public static EmbeddedApiServer start(int port, RequestInterceptor interceptor) {
        return start(port, Optional.of(ServingCertificate.generate(Clock.systemUTC())), interceptor);
    }

    /**
     * As {@link #start(int)}, over plain HTTP: for tests whose requests no client library sends, read
     * off the wire as HTTP/1.1.
     */
    public static EmbeddedApiServer startPlainHttp(int port) {
        return startPlainHttp(port, RequestInterceptor.NONE);
    }

    /**
     * As {@link #startPlainHttp(int)}, each client request shown to {@code interceptor} first: for tests
     * that inject faults or count requests, without the cost of making a certificate at each start.
     */
    public static EmbeddedApiServer startPlainHttp(int port, RequestInterceptor interceptor) {
        return start(port, Optional.empty(), interceptor);
    }

    private static EmbeddedApiServer start(int port, Optional<ServingCertificate> certificate, RequestInterceptor interceptor) {
        requireNonNull(interceptor, "interceptor is null");
        InetAddress loopback;
        try {
            loopback = InetAddress.getByAddress(LOOPBACK);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        InterceptingDispatcher dispatcher = new InterceptingDispatcher(new ApiServerDispatcher(List.of(), new ObjectMapper(), Clock.systemUTC()));
        ApiHttpServer server = ApiHttpServer.start(loopback, port, dispatcher, certificate);
        EmbeddedApiServer started = new EmbeddedApiServer(server, certificate);
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
        // the server's own namespaces and CRDs are not the interceptor's business
        dispatcher.intercept(interceptor);
        log.info("API server serving on {}", started.url);
        return started;
    }

    /** {@code https://127.0.0.1:PORT}, or {@code http://} when started by {@link #startPlainHttp}. */
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
        ConfigBuilder config = new ConfigBuilder(Config.empty())
                .withMasterUrl(url)
                .withNamespace("default")
                .withRequestRetryBackoffLimit(0);
        certificate.ifPresent(serving -> config.withCaCertData(serving.authorityData()).withOauthToken(TOKEN));
        return new KubernetesClientBuilder().withConfig(config.build()).build();
    }

    /** A TLS context trusting this server's CA alone, for JDK HTTP clients; empty over plain HTTP. */
    Optional<SSLContext> trust() {
        return certificate.map(ServingCertificate::trustingContext);
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
        String cluster = certificate.map(serving -> "{server: \"%s\", certificate-authority-data: %s}".formatted(url, serving.authorityData()))
                .orElse("{server: \"%s\"}".formatted(url));
        String user = certificate.isPresent() ? "{token: " + TOKEN + "}" : "{}";
        return """
                # written by muster up: the embedded API server, valid while it runs
                apiVersion: v1
                kind: Config
                clusters:
                - name: muster
                  cluster: %s
                users:
                - name: muster
                  user: %s
                contexts:
                - name: muster
                  context: {cluster: muster, user: muster, namespace: default}
                current-context: muster
                """.formatted(cluster, user);
    }

    @Override
    public void close() {
        server.close();
        log.info("API server on {} stopped", url);
    }
}
