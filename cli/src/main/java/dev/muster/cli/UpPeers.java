package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.peers.InstalledPeer;
import dev.muster.peers.PeerException;
import dev.muster.peers.PeerInstaller;
import dev.muster.peers.PeerProcesses;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The real peers of one {@code muster up}: installed by {@code peers/install} (built the first time,
 * minutes), each started against the embedded server's kubeconfig with its log in a directory of its
 * own, and ended (with their children) when {@code muster up} stops.
 */
final class UpPeers implements AutoCloseable {
    private final PeerProcesses processes = new PeerProcesses();
    private final ImmutableList.Builder<String> started = ImmutableList.builder();

    /**
     * Installs and starts each peer; on failure, ends those already started.
     *
     * @throws PeerException when a peer cannot be installed (the installer's error in the message)
     */
    static UpPeers start(List<UpPeer> peers, EmbeddedCluster cluster, Path kubeconfig, ApiServerChoice apiServer) {
        KubernetesClient client = cluster.client();
        UpPeers running = new UpPeers();
        if (peers.isEmpty()) {
            return running;
        }
        try {
            Path logs = Files.createTempDirectory("muster-up-peers-");
            Map<String, InstalledPeer> installed = PeerInstaller.locate().install(peers.stream()
                    .flatMap(peer -> Stream.concat(Stream.of(peer.peerName()), peer.companions().stream())).distinct().toList());
            for (UpPeer peer : peers.stream().distinct().toList()) {
                requireNonNull(installed.get(peer.peerName()), "BUG: the installer did not report " + peer.peerName());
                peer.attach(cluster, installed, kubeconfig.toAbsolutePath());
                peer.prepare(client);
                Path log = logs.resolve(peer.peerName() + ".log");
                Process process = running.processes.start(peer.command(installed.get(peer.peerName()).executable(), kubeconfig.toAbsolutePath(), apiServer),
                        peer.environment(), log);
                running.started.add(peer.peerName() + " (" + peer.description() + " " + installed.get(peer.peerName()).version() + ", pid "
                        + process.pid() + ", log " + log + ")");
            }
            return running;
        } catch (IOException e) {
            running.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            running.close();
            throw e;
        }
    }

    /** One line per running peer, for the usage text. */
    List<String> describe() {
        return started.build();
    }

    @Override
    public void close() {
        processes.close();
    }
}
