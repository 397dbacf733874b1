package dev.muster.runtime.leader;

import static java.util.Objects.requireNonNull;

import dev.muster.runtime.kubernetes.LiveScheduler;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One scheduler replica as {@code muster run --leader-elect} wires it: its own client and informers,
 * and a scheduling loop that runs only while its election leads. Counts, across replicas, how many
 * loops run at once.
 */
final class TestingReplica implements AutoCloseable {
    private final KubernetesClient client;
    private final LiveScheduler live;
    private final LeaderElection election;

    private TestingReplica(KubernetesClient client, LiveScheduler live, LeaseConfig lease, AtomicInteger running,
            AtomicInteger maxRunning) {
        this.client = client;
        this.live = live;
        this.election = new LeaderElection(client, lease, Clock.systemUTC(), new LeaderElection.Callbacks() {
            @Override
            public void startedLeading() {
                maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                live.scheduler().start();
            }

            @Override
            public void stoppedLeading() {
                try {
                    live.scheduler().stop();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                running.decrementAndGet();
            }
        });
    }

    /** Connects, waits for the informers, and starts campaigning. */
    static TestingReplica start(TestingApiServer server, LeaseConfig lease, AtomicInteger running, AtomicInteger maxRunning)
            throws InterruptedException {
        requireNonNull(lease, "lease is null");
        KubernetesClient client = server.newClient();
        TestingReplica replica = new TestingReplica(client, LiveScheduler.connect(client), lease, running, maxRunning);
        replica.election.start();
        return replica;
    }

    boolean leading() {
        return election.isLeading();
    }

    int cycles() {
        return live.reports().size();
    }

    /** Dies: stops campaigning and scheduling without releasing the lease. */
    void kill() throws InterruptedException {
        election.abandon();
    }

    @Override
    public void close() throws InterruptedException {
        election.close();
        live.close();
        client.close();
    }
}
