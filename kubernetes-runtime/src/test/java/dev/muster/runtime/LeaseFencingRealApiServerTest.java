package dev.muster.runtime;

import static dev.muster.runtime.kubernetes.Manifests.pod;
import static dev.muster.runtime.kubernetes.Manifests.podGroup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.peers.WithRealControlPlane;
import dev.muster.runtime.binding.StatusWriter;
import dev.muster.runtime.kubernetes.ClusterObjects;
import dev.muster.runtime.leader.LeaseConfig;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Write fencing against a real kube-apiserver: a leader frozen in the middle of writing a cycle's
 * decisions, for longer than its lease, wakes to find that a standby took the Lease meanwhile, and
 * sends nothing more of that cycle.
 */
@WithRealControlPlane(nodes = 2, nodeCpu = "8", nodeMemory = "32Gi")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class LeaseFencingRealApiServerTest {
    private static final Duration LEASE = Duration.ofSeconds(4);
    private static final String LEASE_NAME = "muster-scheduler";
    private static final String POD_GROUP = "scheduling.volcano.sh/v1beta1 PodGroup";

    @Test
    void aLeaderFrozenPastItsLeaseBetweenItsBindsAndItsStatusWritesWritesNoStatusAfterWaking(KubernetesClient client) throws Exception {
        // given: a leader whose clock, once armed, freezes it (as SIGSTOP does) just as it starts writing a cycle's
        // statuses, after that cycle's binds, until past its lease; a standby took the Lease meanwhile
        FreezingClock clock = new FreezingClock(client);
        LeaseConfig lease = new LeaseConfig("default", LEASE_NAME, "the-leader", LEASE, Duration.ofSeconds(3), Duration.ofMillis(200));
        KubernetesRuntime runtime = TestingRuntime.create(client, TestingRuntime.options(Set.of("muster"), Optional.of(lease)), clock);
        runtime.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> holder(client).equals("the-leader"));
            ClusterObjects.create(client, pod("fenced-0", "fenced", "1") + pod("fenced-1", "fenced", "1"));
            clock.arm();

            // when: the gang's PodGroup appears; the cycle that places it binds it, then freezes
            ClusterObjects.create(client, podGroup("fenced", 2, "default"));
            await().atMost(Duration.ofSeconds(30)).untilTrue(clock.fired);
            String version = clock.podGroupVersionAtWake.get();

            // then: the binds sent before the freeze stand, and nothing of the cycle is written after it
            assertThat(bound(client, "fenced-0") && bound(client, "fenced-1")).isTrue();
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() ->
                    storedPodGroup(client).getMetadata().getResourceVersion().equals(version));
            assertThat(phase(storedPodGroup(client))).isEmpty();

            // and once the silent standby's lease runs out, the replica leads again and writes the status
            await().atMost(Duration.ofSeconds(30)).until(() -> "Running".equals(phase(storedPodGroup(client))));
            assertThat(holder(client)).isEqualTo("the-leader");
        } finally {
            runtime.stop();
        }
    }

    private static GenericKubernetesResource storedPodGroup(KubernetesClient client) {
        return ClusterObjects.get(client, POD_GROUP, "default", "fenced");
    }

    private static String phase(GenericKubernetesResource podGroup) {
        Object status = podGroup.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map && map.get("phase") != null ? map.get("phase").toString() : "";
    }

    private static boolean bound(KubernetesClient client, String pod) {
        Pod stored = client.pods().inNamespace("default").withName(pod).get();
        return stored.getSpec().getNodeName() != null && !stored.getSpec().getNodeName().isEmpty();
    }

    private static String holder(KubernetesClient client) {
        var stored = client.leases().inNamespace("default").withName(LEASE_NAME).get();
        return stored == null || stored.getSpec().getHolderIdentity() == null ? "" : stored.getSpec().getHolderIdentity();
    }

    /**
     * The system clock, which, once armed, does to the scheduling thread what SIGSTOP and SIGCONT do: the
     * first time that thread reads it inside {@link StatusWriter#write} with the gang bound, it returns three
     * lease durations later, and meanwhile the Lease has passed to a standby that renewed it just now.
     */
    private static final class FreezingClock extends Clock {
        private final KubernetesClient client;
        private final AtomicBoolean armed = new AtomicBoolean();
        private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);
        final AtomicBoolean fired = new AtomicBoolean();
        final AtomicReference<String> podGroupVersionAtWake = new AtomicReference<>();

        FreezingClock(KubernetesClient client) {
            this.client = client;
        }

        void arm() {
            armed.set(true);
        }

        @Override
        public Instant instant() {
            if (armed.get() && Thread.currentThread().getName().equals("muster-scheduler") && writingStatuses()
                    && bound(client, "fenced-0") && bound(client, "fenced-1") && armed.compareAndSet(true, false)) {
                offset.set(LEASE.multipliedBy(3));
                Instant woken = Instant.now().plus(offset.get());
                client.leases().inNamespace("default").withName(LEASE_NAME).edit(stored -> {
                    stored.getSpec().setHolderIdentity("the-standby");
                    stored.getSpec().setRenewTime(ZonedDateTime.ofInstant(woken, ZoneOffset.UTC));
                    stored.getSpec().setLeaseTransitions(stored.getSpec().getLeaseTransitions() + 1);
                    return stored;
                });
                podGroupVersionAtWake.set(storedPodGroup(client).getMetadata().getResourceVersion());
                fired.set(true);
            }
            return Instant.now().plus(offset.get());
        }

        private static boolean writingStatuses() {
            return StackWalker.getInstance().walk(frames -> frames.anyMatch(frame ->
                    frame.getClassName().equals(StatusWriter.class.getName()) && frame.getMethodName().equals("write")));
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("a testing clock is in UTC");
        }
    }
}
