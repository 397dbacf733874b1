package dev.muster.peers;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The command lines of etcd and kube-apiserver, and the files they read, all under one directory.
 * Flags are those of etcd 3.6 and kube-apiserver 1.34 ({@code --help} of each).
 */
final class PeerCommands {
    private final Path directory;
    private final Map<String, InstalledPeer> installed;

    PeerCommands(Path directory, Map<String, InstalledPeer> installed) {
        this.directory = requireNonNull(directory, "directory is null");
        this.installed = ImmutableMap.copyOf(installed);
    }

    /** kube-apiserver writes a self-signed certificate here, followed by the CA that signed it. */
    static Path servingCertificate(Path directory) {
        return directory.resolve("apiserver-certs").resolve("apiserver.crt");
    }

    Path servingCertificate() {
        return servingCertificate(directory);
    }

    /** Written just after the certificate, so once it exists the certificate is whole. */
    Path servingKey() {
        return directory.resolve("apiserver-certs").resolve("apiserver.key");
    }

    List<String> etcd(String clientUrl, String peerUrl) {
        return ImmutableList.of(
                executable(RealControlPlane.ETCD),
                "--name=muster",
                "--data-dir=" + directory.resolve("etcd"),
                "--listen-client-urls=" + clientUrl,
                "--advertise-client-urls=" + clientUrl,
                "--listen-peer-urls=" + peerUrl,
                "--initial-advertise-peer-urls=" + peerUrl,
                "--initial-cluster=muster=" + peerUrl,
                // a test's data need not survive a power cut; fsync per write is most of etcd's latency
                "--unsafe-no-fsync=true");
    }

    List<String> kubeApiServer(String etcdUrl, int securePort, List<TokenUser> users) throws IOException {
        Path tokens = directory.resolve("tokens.csv");
        Files.write(tokens, users.stream().map(TokenUser::tokenFileLine).toList(), UTF_8);
        ServiceAccountKeys keys = ServiceAccountKeys.generate(directory);
        return ImmutableList.of(
                executable(RealControlPlane.KUBE_APISERVER),
                "--etcd-servers=" + etcdUrl,
                "--bind-address=127.0.0.1",
                "--advertise-address=127.0.0.1",
                "--secure-port=" + securePort,
                // no --tls-cert-file: kube-apiserver generates a CA and a serving certificate for its
                // advertise address here, which the kubeconfig then trusts
                "--cert-dir=" + servingCertificate().getParent(),
                "--token-auth-file=" + tokens,
                "--authorization-mode=Node,RBAC",
                "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                "--service-account-key-file=" + keys.publicKey(),
                "--service-account-signing-key-file=" + keys.privateKey(),
                "--service-cluster-ip-range=10.96.0.0/16",
                // the default reconciler writes the advertise address into the kubernetes Service's
                // Endpoints, which refuse a loopback address, and logs that every few seconds; nothing
                // here runs in a pod, so no endpoints are needed
                "--endpoint-reconciler-type=none",
                // a pod's log is proxied to its node's kubelet at the node's first address of these types: the simulated
                // nodes of muster up report their kubelet API's loopback address as InternalIP, and a Hostname such
                // as node-1, the default's first choice, that resolves nowhere
                "--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname",
                "--allow-privileged=true",
                "--profiling=false");
    }

    private String executable(String peer) {
        InstalledPeer found = installed.get(peer);
        if (found == null) {
            throw new PeerException("BUG: peer " + peer + " was not installed; installed: " + installed.keySet());
        }
        return found.executable().toString();
    }
}
