package dev.muster.peers;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * Registers nodes as a kubelet would, as far as a scheduler can see: the Node object, then its
 * status (capacity, allocatable, a Ready condition) through the {@code nodes/status} subresource.
 * Nothing keeps them fresh: no node-lifecycle controller runs, so they stay Ready and untainted.
 */
final class ClusterNodes {
    private final KubernetesClient client;
    private final Clock clock;

    ClusterNodes(KubernetesClient client, Clock clock) {
        this.client = requireNonNull(client, "client is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    static String nodeName(int index) {
        return "node-" + index;
    }

    List<String> register(ControlPlaneSpec spec) {
        ImmutableList.Builder<String> names = ImmutableList.builder();
        for (int index = 0; index < spec.nodes(); index++) {
            String name = nodeName(index);
            Node created = client.nodes().resource(new NodeBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .addToLabels("kubernetes.io/hostname", name)
                    .addToLabels("kubernetes.io/os", "linux")
                    .addToLabels("kubernetes.io/arch", "amd64")
                    .endMetadata()
                    .build()).create();
            Node ready = client.nodes().resource(withReadyStatus(created, spec)).updateStatus();
            // admission (TaintNodesByCondition) taints a new node not-ready; the node lifecycle
            // controller would lift it once the node is Ready, and none runs here
            client.nodes().resource(new NodeBuilder(ready).editSpec().withTaints().endSpec().build()).update();
            names.add(name);
        }
        return names.build();
    }

    private Node withReadyStatus(Node node, ControlPlaneSpec spec) {
        Map<String, Quantity> resources = ImmutableMap.of(
                "cpu", new Quantity(spec.nodeCpu()),
                "memory", new Quantity(spec.nodeMemory()),
                "pods", new Quantity(Integer.toString(spec.nodePods())));
        String now = Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
        NodeCondition ready = new NodeConditionBuilder()
                .withType("Ready")
                .withStatus("True")
                .withReason("KubeletReady")
                .withMessage("registered by the muster-peers control plane")
                .withLastHeartbeatTime(now)
                .withLastTransitionTime(now)
                .build();
        return new NodeBuilder(node)
                .withNewStatus()
                .withCapacity(resources)
                .withAllocatable(resources)
                .withConditions(ready)
                .addNewAddress().withType("Hostname").withAddress(node.getMetadata().getName()).endAddress()
                .withNewNodeInfo()
                .withOperatingSystem("linux")
                .withArchitecture("amd64")
                .withKubeletVersion(RealControlPlane.KUBERNETES_VERSION)
                .endNodeInfo()
                .endStatus()
                .build();
    }
}
