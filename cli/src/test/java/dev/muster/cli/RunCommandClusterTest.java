package dev.muster.cli;

import static dev.muster.cli.Gangs.gang;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.embedded.EmbeddedApiServer;
import dev.muster.embedded.NodePool;
import dev.muster.embedded.SimulatedNodes;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code muster run} as deployed: two replicas on one Lease, and an API server that is not there yet. */
class RunCommandClusterTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The lease duration the replicas run with: a standby takes over within it. */
    private static final Duration LEASE = Duration.ofSeconds(4);
    private static final String[] LEADER_ELECTION = {"--leader-elect", "--lease-namespace", "default", "--lease-duration", "4s",
        "--renew-deadline", "3s", "--retry-period", "200ms"};

    @TempDir
    Path directory;

    private final List<RunReplica> replicas = new ArrayList<>();
    private EmbeddedApiServer server;
    private KubernetesClient client;

    @AfterEach
    void stopAll() throws InterruptedException {
        for (RunReplica replica : replicas) {
            replica.stop(WAIT);
        }
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void oneReplicaBindsTheOtherWaitsAndTakesOverWhenTheLeaderStops() throws IOException, InterruptedException {
        // given: two replicas of muster run --leader-elect
        Path kubeconfig = startServer(0);
        RunReplica first = replica(kubeconfig, LEADER_ELECTION);
        RunReplica second = replica(kubeconfig, LEADER_ELECTION);
        await().atMost(WAIT).until(() -> first.isLeading() || second.isLeading());
        RunReplica leader = first.isLeading() ? first : second;
        RunReplica standby = leader == first ? second : first;

        // when
        Gangs.create(client, gang("before", 4, "cpu: '1'", ""));

        // then: the leader binds, the standby runs no cycle
        await().atMost(WAIT).until(() -> bound("before") == 4 && leader.metric("muster_pods_bound_total") == 4);
        assertThat(standby.isLeading()).isFalse();
        assertThat(standby.metric("muster_cycles_total")).isZero();
        assertThat(standby.metric("muster_pods_bound_total")).isZero();
        double leaderBindFailures = leader.metric("muster_bind_failures_total");

        // when: the leader stops (and releases the Lease)
        assertThat(leader.stop(WAIT)).isEqualTo(ExitCodes.OK);

        // then: the standby leads within the lease duration and binds what comes next
        await().atMost(LEASE).until(standby::isLeading);
        Gangs.create(client, gang("after", 4, "cpu: '1'", ""));
        await().atMost(WAIT).until(() -> bound("after") == 4 && standby.metric("muster_pods_bound_total") == 4);
        assertThat(bound("before")).isEqualTo(4);
        assertThat(leaderBindFailures).isZero();
        assertThat(standby.metric("muster_bind_failures_total")).isZero();
    }

    @Test
    void anApiServerThatIsNotThereYetIsNamedAndWaitedFor() throws IOException, InterruptedException {
        // given: a kubeconfig for a server that does not answer yet
        int port = RunReplica.freePort();
        Path kubeconfig = directory.resolve("kubeconfig");
        // plain HTTP: each HTTPS start makes a new CA, which the replica's kubeconfig, read once, would not trust
        EmbeddedApiServer absent = EmbeddedApiServer.startPlainHttp(port);
        absent.writeKubeconfig(kubeconfig);
        absent.close();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream originalErr = System.err;
        RunReplica replica;
        try {
            System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));

            // when
            replica = replica(kubeconfig);

            // then: the log says which server cannot be read, and the command keeps trying
            await().atMost(WAIT).until(() -> log.toString(StandardCharsets.UTF_8).contains("cannot read the API server, retrying"));
        } finally {
            System.setErr(originalErr);
        }
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("server=http://127.0.0.1:" + port);
        assertThat(replica.isRunning()).isTrue();
        assertThat(replica.stderr()).contains("on http://127.0.0.1:" + port);

        // when: the server comes up
        startServer(port);
        Gangs.create(client, gang("late", 2, "cpu: '1'", ""));

        // then
        await().atMost(WAIT).until(() -> bound("late") == 2);
    }

    @Test
    void anApiServerThatGoesAwayAndComesBackIsSurvived() throws IOException, InterruptedException {
        // given
        int port = RunReplica.freePort();
        RunReplica replica = replica(startServer(port));
        Gangs.create(client, gang("before", 2, "cpu: '1'", ""));
        await().atMost(WAIT).until(() -> bound("before") == 2);

        // when: the server goes away long enough for every watch and cycle to fail, then a new one (empty, as
        // after losing etcd) serves on the same address
        client.close();
        server.close();
        client = null;
        server = null;
        await().pollDelay(Duration.ofSeconds(3)).atMost(WAIT).until(replica::isRunning);
        startServer(port);
        Gangs.create(client, gang("after", 2, "cpu: '1'", ""));

        // then: the same process lists the new server and schedules again
        await().atMost(WAIT).until(() -> bound("after") == 2);
        assertThat(replica.isRunning()).isTrue();
    }

    /** Over plain HTTP: a server started again on the port is the same server to a replica, as a restarted kube-apiserver with its certificate directory is. */
    private Path startServer(int port) throws IOException {
        server = EmbeddedApiServer.startPlainHttp(port);
        client = server.newClient();
        SimulatedNodes.create(client, List.of(NodePool.parse("node:2:cpu=8,memory=32Gi")));
        Path kubeconfig = directory.resolve("kubeconfig");
        server.writeKubeconfig(kubeconfig);
        return kubeconfig;
    }

    private RunReplica replica(Path kubeconfig, String... options) {
        RunReplica replica = RunReplica.start(kubeconfig, options);
        replicas.add(replica);
        return replica;
    }

    private long bound(String gang) {
        return client.pods().inNamespace("default").list().getItems().stream()
                .filter(pod -> pod.getMetadata().getName().startsWith(gang + "-"))
                .map(Pod::getSpec)
                .filter(spec -> spec.getNodeName() != null)
                .count();
    }
}
