package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code muster run} processes against a real kube-apiserver and etcd: leader failover between two
 * processes, one of them frozen with SIGSTOP past its lease, and the API server and etcd restarted
 * under a running scheduler. No kubelet runs: binding is what these tests observe.
 */
@WithRealControlPlane(nodes = 2, nodeCpu = "8", nodeMemory = "32Gi")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class RunCommandRealApiServerTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LEASE = Duration.ofSeconds(4);
    private static final Duration RETRY = Duration.ofMillis(500);
    private static final Duration DEFAULT_LEASE = Duration.ofSeconds(15);
    private static final Duration DEFAULT_RETRY = Duration.ofSeconds(2);
    private static final String[] LEADER_ELECTION = {"--leader-elect", "--lease-namespace", "default", "--lease-duration", "4s",
        "--renew-deadline", "3s", "--retry-period", "500ms"};

    @TempDir
    Path directory;

    private final List<RunProcess> processes = new ArrayList<>();

    @AfterEach
    void stopProcesses(RealControlPlane controlPlane, KubernetesClient client) throws InterruptedException {
        for (RunProcess process : processes) {
            process.close();
        }
        // a test that failed while a peer was down leaves it down: the next test gets a whole control plane
        for (String peer : List.of(RealControlPlane.ETCD, RealControlPlane.KUBE_APISERVER)) {
            if (!controlPlane.processes().containsKey(peer)) {
                controlPlane.start(peer);
            }
        }
        client.pods().inNamespace("default").withGracePeriod(0).delete();
        client.genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup").inNamespace("default").delete();
        client.leases().inNamespace("default").delete();
        await().atMost(WAIT).until(() -> client.pods().inNamespace("default").list().getItems().isEmpty());
    }

    @Test
    void aLeaderFrozenPastItsLeaseLosesItToTheStandbyAndBindsNothingAfterItWakes(RealControlPlane controlPlane, KubernetesClient client)
            throws InterruptedException {
        // given: two muster run processes on one Lease, the leader having bound a gang
        RunProcess first = start(controlPlane, "first", LEADER_ELECTION);
        RunProcess second = start(controlPlane, "second", LEADER_ELECTION);
        await().atMost(WAIT).until(() -> first.isLeading() || second.isLeading());
        RunProcess leader = first.isLeading() ? first : second;
        RunProcess standby = leader == first ? second : first;
        Gangs.create(client, Gangs.gang("before", 2, "cpu: '1'", ""));
        await().atMost(WAIT).until(() -> bound(client, "before-").size() == 2 && leader.metric("muster_pods_bound_total") == 2);

        // when: the leader is frozen
        long frozen = System.nanoTime();
        leader.pause();

        // then: the standby leads within the lease duration and a retry period (plus its first look), and binds
        await().atMost(LEASE.plus(RETRY).plus(RETRY).plus(Duration.ofSeconds(2))).until(standby::isLeading);
        Duration failover = Duration.ofNanos(System.nanoTime() - frozen);
        System.out.printf("failover after SIGSTOP of the leader: %d ms (lease 4 s, retry 500 ms)%n", failover.toMillis());
        Gangs.create(client, Gangs.gang("during", 2, "cpu: '1'", ""));
        await().atMost(WAIT).until(() -> bound(client, "during-").size() == 2);

        // when: a gang arrives just as the frozen leader wakes, with the decisions it had and a stale cache
        Map<String, String> placed = bound(client, "");
        Gangs.create(client, Gangs.gang("after", 2, "cpu: '1'", ""));
        leader.resume();

        // then: the new leader binds it, the old one binds nothing and steps down, and no pod moved
        await().atMost(WAIT).until(() -> bound(client, "after-").size() == 2);
        await().atMost(WAIT).until(() -> leader.metric("muster_leader") == 0);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> leader.metric("muster_pods_bound_total") == 2);
        assertThat(leader.logLines("bind failed")).isEmpty();
        assertThat(bound(client, "")).containsAllEntriesOf(placed).hasSize(6);
        assertThat(standby.metric("muster_pods_bound_total")).isEqualTo(4);
    }

    @Test
    void aLeaderKilledWithTheDefaultTimingsIsReplacedWithinTheLeaseDurationAndOneRetryPeriod(RealControlPlane controlPlane,
            KubernetesClient client) throws InterruptedException {
        // given: two muster run processes with kube-scheduler's timings (15 s lease, 10 s renew deadline, 2 s retry)
        RunProcess first = start(controlPlane, "first", "--leader-elect", "--lease-namespace", "default");
        RunProcess second = start(controlPlane, "second", "--leader-elect", "--lease-namespace", "default");
        await().atMost(WAIT).until(() -> first.isLeading() || second.isLeading());
        RunProcess leader = first.isLeading() ? first : second;
        RunProcess standby = leader == first ? second : first;

        // when: the leader is killed
        Instant killed = Instant.now();
        leader.kill();
        Lease last = lease(client);

        // then: the standby takes the lease no earlier than a lease duration after the last renewal it could
        // have seen, and no later than a lease duration and one retry period after the kill
        await().atMost(WAIT).until(standby::isLeading);
        Lease taken = lease(client);
        Instant acquired = taken.getSpec().getAcquireTime().toInstant();
        Duration failover = Duration.between(killed, acquired);
        System.out.printf("failover after SIGKILL of the leader: %d ms (lease 15 s, retry 2 s)%n", failover.toMillis());
        assertThat(taken.getSpec().getHolderIdentity()).isNotEqualTo(last.getSpec().getHolderIdentity());
        assertThat(taken.getSpec().getLeaseTransitions()).isEqualTo(last.getSpec().getLeaseTransitions() + 1);
        assertThat(Duration.between(last.getSpec().getRenewTime().toInstant(), acquired))
                .isGreaterThanOrEqualTo(DEFAULT_LEASE.minusMillis(1));
        // the bound with a second's room for the requests' own latency on a loaded machine
        assertThat(failover).isLessThanOrEqualTo(DEFAULT_LEASE.plus(DEFAULT_RETRY).plusSeconds(1));
        Gangs.create(client, Gangs.gang("after-kill", 2, "cpu: '1'", ""));
        await().atMost(WAIT).until(() -> bound(client, "after-kill-").size() == 2);
    }

    @Test
    void anApiServerOutageIsLoggedOnceAndItsEndOnceAndEtcdRestartedIsSurvived(RealControlPlane controlPlane, KubernetesClient client) {
        // given: one muster run, scheduling
        RunProcess run = start(controlPlane, "alone");
        Gangs.create(client, Gangs.gang("one", 2, "cpu: '1'", ""));
        await().atMost(WAIT).until(() -> bound(client, "one-").size() == 2);
        // scheduler-plugins' PodGroups are not served here: one line says so, not fabric8's stack trace
        assertThat(run.logLines("not served, not watched apiVersion=scheduling.x-k8s.io/v1alpha1")).hasSize(1);
        assertThat(run.logLines("will stop")).isEmpty();

        // when: kube-apiserver goes away for a while
        controlPlane.stop(RealControlPlane.KUBE_APISERVER);

        // then: the log says so, once
        await().atMost(WAIT).until(() -> run.logLines("the API server does not answer").size() == 1);

        // when: it is back, and work arrives
        controlPlane.start(RealControlPlane.KUBE_APISERVER);
        Gangs.create(client, Gangs.gang("two", 2, "cpu: '1'", ""));

        // then: it is bound, and the log says once that the server answers again, and the outage only once
        await().atMost(WAIT).until(() -> bound(client, "two-").size() == 2);
        await().atMost(WAIT).until(() -> run.logLines("the API server answers again").size() == 1);
        assertThat(run.logLines("the API server does not answer")).hasSize(1);

        // when: etcd is restarted under the API server
        controlPlane.restart(RealControlPlane.ETCD);
        await().atMost(WAIT).ignoreExceptions().until(() -> client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
                .withNewMetadata().withGenerateName("etcd-back-").endMetadata().build()).create() != null);
        Gangs.create(client, Gangs.gang("three", 2, "cpu: '1'", ""));

        // then: scheduling goes on
        await().atMost(WAIT).until(() -> bound(client, "three-").size() == 2);
        assertThat(run.isAlive()).isTrue();
    }

    private RunProcess start(RealControlPlane controlPlane, String name, String... options) {
        RunProcess process = RunProcess.start(controlPlane.kubeconfig(), directory.resolve(name + ".log"), options);
        processes.add(process);
        return process;
    }

    private static Lease lease(KubernetesClient client) {
        return client.leases().inNamespace("default").withName("muster-scheduler").get();
    }

    /** Bound pods whose names start with {@code prefix}, with their nodes. */
    private static Map<String, String> bound(KubernetesClient client, String prefix) {
        return client.pods().inNamespace("default").list().getItems().stream()
                .filter(pod -> pod.getMetadata().getName().startsWith(prefix))
                .filter(pod -> pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty())
                .collect(Collectors.toMap(pod -> pod.getMetadata().getName(), pod -> pod.getSpec().getNodeName()));
    }
}
