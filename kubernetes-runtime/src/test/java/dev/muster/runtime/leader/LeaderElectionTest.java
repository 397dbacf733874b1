package dev.muster.runtime.leader;

import static dev.muster.runtime.kubernetes.Manifests.gang;
import static dev.muster.runtime.kubernetes.Manifests.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.kubernetes.TestingApiServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Two replicas in one JVM against one API server: one schedules, the other takes over when it dies. */
class LeaderElectionTest {
    private static final Logger log = LoggerFactory.getLogger(LeaderElectionTest.class);
    // short, yet with room for a loaded machine: the renew deadline leaves a leader 2 s to answer
    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration RETRY = Duration.ofMillis(200);

    private final TestingApiServer server = new TestingApiServer();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger maxRunning = new AtomicInteger();

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void oneReplicaSchedulesAndTheOtherTakesOverWithinTheLeaseWhenItDies() throws InterruptedException {
        // given
        ClusterObjects.create(server.client(), node("n1", "8", "32Gi") + gang("first", 2, "default", "1"));
        try (TestingReplica a = TestingReplica.start(server, lease("a", LEASE), running, maxRunning);
                TestingReplica b = TestingReplica.start(server, lease("b", LEASE), running, maxRunning)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> bound("first-0") && bound("first-1"));
            TestingReplica leader = a.leading() ? a : b;
            TestingReplica standby = leader == a ? b : a;
            assertThat(standby.leading()).isFalse();
            assertThat(standby.cycles()).isZero();

            // when
            long killed = System.nanoTime();
            leader.kill();
            int leaderCycles = leader.cycles();
            Lease lastRenewed = storedLease();
            ClusterObjects.create(server.client(), gang("second", 2, "default", "1"));

            // then
            await().atMost(LEASE.plusSeconds(3)).pollInterval(Duration.ofMillis(10)).until(standby::leading);
            log.info("failover measured takeoverMs={} leaseMs={} retryMs={}", Duration.ofNanos(System.nanoTime() - killed).toMillis(),
                    LEASE.toMillis(), RETRY.toMillis());
            // the standby waited for the dead leader's lease to expire rather than taking a live one: judged on
            // the times in the Lease itself, not on how fast a loaded machine ran the test. fabric8 stamps
            // acquireTime when an attempt starts, before the read that finds the lease expired, so it may precede
            // the expiry by that read's latency (10 ms seen on a loaded machine): allowed up to one retry period
            Lease takenOver = storedLease();
            assertThat(takenOver.getSpec().getHolderIdentity()).isNotEqualTo(lastRenewed.getSpec().getHolderIdentity());
            assertThat(takenOver.getSpec().getLeaseTransitions()).isEqualTo(lastRenewed.getSpec().getLeaseTransitions() + 1);
            assertThat(Duration.between(lastRenewed.getSpec().getRenewTime().toInstant(), takenOver.getSpec().getAcquireTime().toInstant()))
                    .isGreaterThanOrEqualTo(LEASE.minus(RETRY));
            await().atMost(Duration.ofSeconds(10)).until(() -> bound("second-0") && bound("second-1") && standby.cycles() > 0);
            assertThat(leader.cycles()).isEqualTo(leaderCycles);
        }
        for (String pod : List.of("first-0", "first-1", "second-0", "second-1")) {
            assertThat(server.bindingRequests("default/" + pod)).as(pod).isEqualTo(1);
        }
        assertThat(maxRunning).hasValue(1);
    }

    @Test
    void aStandbyTakesAnExpiredLeaseAtItsExpiryNotAtItsNextRegularLook() throws InterruptedException {
        // given: a lease held by a replica that is gone, renewed just now, and a standby that looks every 3 s
        // while the lease lasts 4 s: its regular looks come 3 s and 6 s after its first
        Duration lease = Duration.ofSeconds(4);
        ZonedDateTime renewed = ZonedDateTime.now(ZoneOffset.UTC);
        server.client().leases().inNamespace("kube-system").resource(new LeaseBuilder()
                .withNewMetadata().withName("muster-scheduler").endMetadata()
                .withNewSpec().withHolderIdentity("gone").withLeaseDurationSeconds(4).withAcquireTime(renewed).withRenewTime(renewed)
                .withLeaseTransitions(0).endSpec()
                .build()).create();
        LeaseConfig config = new LeaseConfig("kube-system", "muster-scheduler", "b", lease, Duration.ofMillis(3500), Duration.ofSeconds(3));

        try (TestingReplica b = TestingReplica.start(server, config, running, maxRunning)) {
            // when: it first sees the lease (measured here no earlier than it did)
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> server.requests("GET", "/leases/") > 0);
            Instant firstLook = Instant.now();

            // then: it takes the lease a lease duration after that, not at its next regular look after the expiry
            await().atMost(Duration.ofSeconds(10)).until(b::leading);
            Lease takenOver = storedLease();
            assertThat(takenOver.getSpec().getHolderIdentity()).isEqualTo("b");
            Duration waited = Duration.between(firstLook, takenOver.getSpec().getAcquireTime().toInstant());
            log.info("takeover after first look takeoverMs={} leaseMs={} nextRegularLookMs=6000", waited.toMillis(), lease.toMillis());
            assertThat(waited).isBetween(lease.minusMillis(200), lease.plusSeconds(1));
        }
    }

    @Test
    void aLeaderThatStopsReleasesTheLeaseAndTheStandbyTakesOverAtOnce() throws InterruptedException {
        // given: a lease far longer than the test waits
        Duration longLease = Duration.ofSeconds(30);
        try (TestingReplica a = TestingReplica.start(server, lease("a", longLease), running, maxRunning);
                TestingReplica b = TestingReplica.start(server, lease("b", longLease), running, maxRunning)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> a.leading() || b.leading());
            TestingReplica leader = a.leading() ? a : b;
            TestingReplica standby = leader == a ? b : a;

            // when
            leader.close();

            // then
            await().atMost(Duration.ofSeconds(5)).until(standby::leading);
        }
        assertThat(maxRunning).hasValue(1);
    }

    @Test
    void aLeaderThatCannotRenewStopsSchedulingWithinTheRenewDeadline() throws InterruptedException {
        // given
        try (TestingReplica a = TestingReplica.start(server, lease("a", LEASE), running, maxRunning)) {
            await().atMost(Duration.ofSeconds(10)).until(a::leading);

            // when: the API server refuses every lease request
            server.fail("/leases", 500);

            // then
            await().atMost(LEASE).until(() -> !a.leading() && running.get() == 0);

            // and it leads again once the API server answers
            server.clearFaults();
            await().atMost(Duration.ofSeconds(5)).until(a::leading);
        }
    }

    private static LeaseConfig lease(String identity, Duration duration) {
        return new LeaseConfig("kube-system", "muster-scheduler", identity, duration, duration.multipliedBy(2).dividedBy(3), RETRY);
    }

    private Lease storedLease() {
        return server.client().leases().inNamespace("kube-system").withName("muster-scheduler").get();
    }

    private boolean bound(String pod) {
        Pod stored = server.client().pods().inNamespace("default").withName(pod).get();
        return stored != null && stored.getSpec().getNodeName() != null;
    }
}
