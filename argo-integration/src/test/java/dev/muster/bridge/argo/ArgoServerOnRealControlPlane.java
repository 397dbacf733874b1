package dev.muster.bridge.argo;

import static org.awaitility.Awaitility.await;

import dev.muster.peers.InstalledPeer;
import dev.muster.peers.PeerInstaller;
import dev.muster.peers.PeerProcesses;
import dev.muster.peers.RealControlPlane;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The real {@code argo server} (peer {@code argo-server}, Argo v4.0.5) beside a real control plane, watching
 * the {@code default} namespace over plain HTTP on a free loopback port, in {@code --auth-mode client}: each
 * request's bearer token is the Kubernetes token it acts with, as a cluster's Argo Server is usually run.
 */
final class ArgoServerOnRealControlPlane implements AutoCloseable {
    private static final Duration START = Duration.ofSeconds(90);

    private final PeerProcesses peers = new PeerProcesses();
    private final URI url;
    private final Path log;

    private ArgoServerOnRealControlPlane(URI url, Path log) {
        this.url = url;
        this.log = log;
    }

    static ArgoServerOnRealControlPlane start(RealControlPlane controlPlane, Path logs) {
        Map<String, InstalledPeer> installed = PeerInstaller.locate().install(List.of("argo-server"));
        int port = freePort();
        ArgoServerOnRealControlPlane server = new ArgoServerOnRealControlPlane(URI.create("http://127.0.0.1:" + port),
                logs.resolve("argo-server.log"));
        try {
            server.peers.start(List.of(installed.get("argo-server").executable().toString(), "server",
                    "--kubeconfig", controlPlane.kubeconfig().toString(), "--namespaced", "--managed-namespace", ArgoOnRealControlPlane.NAMESPACE,
                    "--auth-mode", "client", "--secure=false", "--port", String.valueOf(port), "--loglevel", "info"),
                    // client mode builds each request's Kubernetes client from the default loading rules (KUBECONFIG), not
                    // from --kubeconfig (auth/gatekeeper.go, util/kubeconfig)
                    Map.of("KUBECONFIG", controlPlane.kubeconfig().toString()), server.log);
            HttpClient http = HttpClient.newHttpClient();
            // up once it answers the admin: before its gateway has dialled its own gRPC server, it answers 503
            await("argo server answers on " + server.url).atMost(START).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> http.send(HttpRequest.newBuilder(server.url.resolve("/api/v1/workflows/" + ArgoOnRealControlPlane.NAMESPACE))
                            .header("Authorization", "Bearer " + controlPlane.admin().token()).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
        } catch (RuntimeException e) {
            String tail = server.peers.tails(40);
            server.close();
            throw new IllegalStateException("argo server did not start: " + e.getMessage() + "\n" + tail, e);
        }
        return server;
    }

    URI url() {
        return url;
    }

    /** The server's log (each HTTP request it served is a line with its path and method). */
    Path log() {
        return log;
    }

    String peerLogs() {
        return peers.tails(40);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        peers.close();
    }
}
