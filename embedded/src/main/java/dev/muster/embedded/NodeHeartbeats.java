package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.ThreadSafe;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heartbeats of the simulated kubelets, as kubelet v1.34 sends them with its defaults: each
 * node's Lease in {@code kube-node-lease} (named as the node, held by it, owned by it,
 * {@code leaseDurationSeconds: 40}) renewed every 10 s ({@link #RENEW_INTERVAL}, a quarter of the
 * duration), and the node's condition heartbeat times written through {@code nodes/status} every
 * 5 minutes ({@link #STATUS_REPORT_INTERVAL}, {@code nodeStatusReportFrequency}). A condition's status
 * is left as it is: a node created NotReady stays NotReady.
 *
 * <p>{@link #beat} does one round for every node the informer knows; the kubelet calls it on its own
 * thread every {@link #RENEW_INTERVAL}, and tests call it with a clock of their own.
 */
@ThreadSafe
final class NodeHeartbeats {
    static final String NAMESPACE = "kube-node-lease";
    static final Duration RENEW_INTERVAL = Duration.ofSeconds(10);
    static final Duration STATUS_REPORT_INTERVAL = Duration.ofMinutes(5);
    static final int LEASE_DURATION_SECONDS = 40;
    private static final Logger log = LoggerFactory.getLogger(NodeHeartbeats.class);
    /** {@code metav1.RFC3339Micro}, the format of a Lease's {@code renewTime}. */
    private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

    private final KubernetesClient client;
    private final Clock clock;
    private final ObjectMapper json = new ObjectMapper();
    /** When each node's status was last reported, by node name. */
    private final Map<String, Instant> reported = new ConcurrentHashMap<>();
    private volatile SharedIndexInformer<Node> nodes;

    NodeHeartbeats(KubernetesClient client, Clock clock) {
        this.client = requireNonNull(client, "client is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Starts watching the nodes, and waits for their first list. */
    void start() {
        nodes = client.nodes().inform();
    }

    void stop() {
        SharedIndexInformer<Node> running = nodes;
        if (running != null) {
            running.stop();
        }
    }

    /** The node the informer knows by that name. */
    Optional<Node> node(String name) {
        SharedIndexInformer<Node> running = nodes;
        return running == null ? Optional.empty() : Optional.ofNullable(running.getStore().getByKey(name));
    }

    /** Renews every node's Lease, and reports the status of those whose last report is 5 minutes old. */
    void beat() {
        SharedIndexInformer<Node> running = nodes;
        if (running == null) {
            return;
        }
        Instant now = clock.instant();
        List<Node> known = running.getStore().list();
        for (Node node : known) {
            String name = node.getMetadata().getName();
            try {
                renew(node, now);
                Instant last = reported.computeIfAbsent(name, absent -> heartbeatOf(node).orElse(now));
                if (!now.isBefore(last.plus(STATUS_REPORT_INTERVAL))) {
                    reportStatus(node, now);
                    reported.put(name, now);
                }
            } catch (KubernetesClientException e) {
                // one node's failed heartbeat does not stop the others'; the next round tries again
                if (e.getCode() != 404) {
                    log.warn("node={}: heartbeat failed: {}", name, e.getMessage());
                }
            }
        }
        reported.keySet().retainAll(known.stream().map(node -> node.getMetadata().getName()).toList());
    }

    private void renew(Node node, Instant now) {
        String name = node.getMetadata().getName();
        ObjectNode patch = json.createObjectNode();
        patch.putObject("spec").put("holderIdentity", name).put("leaseDurationSeconds", LEASE_DURATION_SECONDS)
                .put("renewTime", MICRO_TIME.format(now));
        try {
            client.leases().inNamespace(NAMESPACE).withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
            client.leases().inNamespace(NAMESPACE).resource(lease(node, now)).create();
        }
    }

    /** The Lease the kubelet's lease controller creates: named as the node, held by it, owned by it. */
    static Lease lease(Node node, Instant now) {
        String name = node.getMetadata().getName();
        return new LeaseBuilder()
                .withNewMetadata()
                    .withName(name)
                    .withNamespace(NAMESPACE)
                    .addNewOwnerReference().withApiVersion("v1").withKind("Node").withName(name)
                        .withUid(node.getMetadata().getUid()).endOwnerReference()
                .endMetadata()
                .withNewSpec()
                    .withHolderIdentity(name)
                    .withLeaseDurationSeconds(LEASE_DURATION_SECONDS)
                    .withRenewTime(now.atZone(ZoneOffset.UTC))
                .endSpec()
                .build();
    }

    /** Each condition's heartbeat moved to now, by a strategic merge patch on {@code type} that keeps the rest. */
    private void reportStatus(Node node, Instant now) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null || node.getStatus().getConditions().isEmpty()) {
            return;
        }
        ObjectNode patch = json.createObjectNode();
        ArrayNode conditions = patch.putObject("status").putArray("conditions");
        for (NodeCondition condition : node.getStatus().getConditions()) {
            conditions.addObject().put("type", condition.getType()).put("lastHeartbeatTime", SimulatedNodes.timestamp(now));
        }
        client.nodes().withName(node.getMetadata().getName()).subresource("status")
                .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch.toString());
    }

    private static Optional<Instant> heartbeatOf(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return node.getStatus().getConditions().stream()
                .filter(condition -> "Ready".equals(condition.getType()) && condition.getLastHeartbeatTime() != null)
                .map(condition -> Instant.parse(condition.getLastHeartbeatTime()))
                .findFirst();
    }
}
