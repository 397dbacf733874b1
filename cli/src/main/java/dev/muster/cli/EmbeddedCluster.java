package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.embedded.EmbeddedApiServer;
import dev.muster.embedded.NodePool;
import dev.muster.embedded.SimulatedKubelet;
import dev.muster.embedded.SimulatedNodes;
import dev.muster.engine.framework.SessionConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code muster up} runs in one JVM: the embedded API server, its simulated nodes and kubelet,
 * and the scheduler connected to it as {@code muster run} would be. {@code muster demo} and the
 * embedded benchmark start the same thing.
 */
final class EmbeddedCluster implements AutoCloseable {
    /** The scheduler name pods ask for. */
    static final String SCHEDULER_NAME = "muster";

    private final EmbeddedApiServer server;
    private final KubernetesClient client;
    private final Optional<SimulatedKubelet> kubelet;
    private final KubernetesRuntime runtime;
    private final ImmutableList<String> nodes;

    private EmbeddedCluster(EmbeddedApiServer server, KubernetesClient client, Optional<SimulatedKubelet> kubelet,
            KubernetesRuntime runtime, List<String> nodes) {
        this.server = server;
        this.client = client;
        this.kubelet = kubelet;
        this.runtime = runtime;
        this.nodes = ImmutableList.copyOf(nodes);
    }

    /** How to start one. */
    record Options(int port, List<NodePool> pools, Optional<Path> nodesFile, SessionConfig config, Duration period,
            boolean kubelet) {
        Options {
            pools = ImmutableList.copyOf(pools);
            requireNonNull(nodesFile, "nodesFile is null");
            requireNonNull(config, "config is null");
            requireNonNull(period, "period is null");
        }
    }

    /**
     * Serves, creates the nodes, starts the kubelet and the scheduler; on failure, stops what started.
     *
     * @throws IOException when the nodes file cannot be read
     */
    static EmbeddedCluster start(Options options, Clock clock) throws IOException, InterruptedException {
        EmbeddedApiServer server = EmbeddedApiServer.start(options.port());
        KubernetesClient client = null;
        SimulatedKubelet kubelet = null;
        try {
            client = server.newClient();
            List<String> nodes = new ArrayList<>(SimulatedNodes.create(client, options.pools()));
            if (options.nodesFile().isPresent()) {
                nodes.addAll(SimulatedNodes.createFromFile(client, options.nodesFile().get()));
            }
            if (options.kubelet()) {
                kubelet = new SimulatedKubelet(client, clock);
                kubelet.start();
            }
            KubernetesRuntime runtime = new KubernetesRuntime(client, options.config(), Set.of(SCHEDULER_NAME), options.period(),
                    clock);
            runtime.start();
            return new EmbeddedCluster(server, client, Optional.ofNullable(kubelet), runtime, nodes);
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (kubelet != null) {
                kubelet.close();
            }
            if (client != null) {
                client.close();
            }
            server.close();
            throw e;
        }
    }

    EmbeddedApiServer server() {
        return server;
    }

    /** A client of the embedded server, shared; callers do not close it. */
    KubernetesClient client() {
        return client;
    }

    ImmutableList<String> nodes() {
        return nodes;
    }

    /** Stops the scheduler after its cycle in progress, then the kubelet and the server; an interrupt stays set. */
    @Override
    public void close() {
        try {
            runtime.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            kubelet.ifPresent(SimulatedKubelet::close);
            client.close();
            server.close();
        }
    }
}
