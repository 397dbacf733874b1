package dev.muster.cli;

import com.google.inject.Module;
import dev.muster.bridge.argo.ArgoBridgeModule;
import dev.muster.bridge.argo.server.ArgoServerSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Optional;

/**
 * {@code muster up --peer argo-server}: the Argo Server on Argo's own port, 2746, on loopback, so the
 * UI and {@code argo --argo-server 127.0.0.1:2746 --secure=false} work as the Argo documentation says,
 * and the Argo bridge's workflow admission resumes workflows through it, as {@code muster run
 * --argo-server-url} does on a cluster.
 */
final class ArgoServerUp {
    static final int PORT = 2746;
    static final URI URL = URI.create("http://127.0.0.1:" + PORT);

    private ArgoServerUp() {}

    /**
     * The module that points the Argo bridge at the server; empty without the peer.
     *
     * @throws IllegalArgumentException when the port is taken, before anything starts
     */
    static Optional<Module> module(boolean argoServer) {
        if (!argoServer) {
            return Optional.empty();
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), PORT));
        } catch (IOException e) {
            throw new IllegalArgumentException("--peer argo-server: port " + PORT + " on 127.0.0.1, the Argo Server's, is in use ("
                    + e.getMessage() + "); stop what listens there");
        }
        // --auth-mode server: the server acts as the kubeconfig's user, so neither the bridge nor the UI needs a token
        return Optional.of(ArgoBridgeModule.server(new ArgoServerSettings(URL, Optional.empty())));
    }
}
