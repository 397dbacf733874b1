package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The simulated kubelets' heartbeats: node Leases renewed every round, condition heartbeats every five minutes. */
class NodeHeartbeatsTest {
    private static final Instant START = Instant.parse("2026-12-02T01:00:00Z");

    private EmbeddedApiServer server;
    private KubernetesClient client;
    private TestingClock clock;
    private NodeHeartbeats heartbeats;

    @BeforeEach
    void start() {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
        clock = new TestingClock(START);
        SimulatedNodes.create(client, List.of(NodePool.parse("beat:2:cpu=4")), clock);
        heartbeats = new NodeHeartbeats(client, clock);
        heartbeats.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> heartbeats.node("beat-2").isPresent());
    }

    @AfterEach
    void stop() {
        heartbeats.stop();
        client.close();
        server.close();
    }

    @Test
    void eachNodesLeaseIsCreatedHeldAndOwnedByItThenRenewed() {
        heartbeats.beat();

        Lease lease = lease("beat-1");
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("beat-1");
        assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(40);
        assertThat(lease.getSpec().getRenewTime().toInstant()).isEqualTo(START);
        assertThat(lease.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getKind()).isEqualTo("Node");
            assertThat(owner.getName()).isEqualTo("beat-1");
            assertThat(owner.getUid()).isEqualTo(client.nodes().withName("beat-1").get().getMetadata().getUid());
        });

        clock.advance(NodeHeartbeats.RENEW_INTERVAL);
        heartbeats.beat();

        assertThat(lease("beat-1").getSpec().getRenewTime().toInstant()).isEqualTo(START.plus(NodeHeartbeats.RENEW_INTERVAL));
        assertThat(lease("beat-2").getSpec().getRenewTime().toInstant()).isEqualTo(START.plus(NodeHeartbeats.RENEW_INTERVAL));
    }

    @Test
    void conditionHeartbeatsMoveEveryFiveMinutesAndTransitionTimesStay() {
        heartbeats.beat();
        clock.advance(NodeHeartbeats.STATUS_REPORT_INTERVAL.minusSeconds(10));
        heartbeats.beat();

        assertThat(conditions("beat-1")).allSatisfy(condition -> assertThat(condition.getLastHeartbeatTime()).isEqualTo(START.toString()));

        clock.advance(Duration.ofSeconds(10));
        heartbeats.beat();

        assertThat(conditions("beat-1")).hasSize(4).allSatisfy(condition -> {
            assertThat(condition.getLastHeartbeatTime()).isEqualTo(START.plus(NodeHeartbeats.STATUS_REPORT_INTERVAL).toString());
            assertThat(condition.getLastTransitionTime()).isEqualTo(START.toString());
            assertThat(condition.getReason()).startsWith("Kubelet");
        });
    }

    @Test
    void aNodeWrittenNotReadyStaysNotReadyAndItsLeaseGoesWithIt() {
        Node broken = client.resource(new NodeBuilder().withNewMetadata().withName("broken").endMetadata()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("False").withReason("KubeletNotReady")
                .withLastHeartbeatTime(START.toString()).endCondition().endStatus().build()).create();
        await().atMost(Duration.ofSeconds(20)).until(() -> heartbeats.node("broken").isPresent());
        clock.advance(NodeHeartbeats.STATUS_REPORT_INTERVAL);

        heartbeats.beat();

        assertThat(conditions("broken")).singleElement().satisfies(condition -> {
            assertThat(condition.getStatus()).isEqualTo("False");
            assertThat(condition.getLastHeartbeatTime()).isEqualTo(START.plus(NodeHeartbeats.STATUS_REPORT_INTERVAL).toString());
        });
        assertThat(lease("broken")).isNotNull();

        client.resource(broken).delete();

        assertThat(lease("broken")).isNull();
    }

    private Lease lease(String node) {
        return client.leases().inNamespace("kube-node-lease").withName(node).get();
    }

    private List<NodeCondition> conditions(String node) {
        return client.nodes().withName(node).get().getStatus().getConditions();
    }
}
