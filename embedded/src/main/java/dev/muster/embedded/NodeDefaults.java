package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The defaults kube-apiserver v1.34.4 gives a v1 Node when it decodes one ({@code SetDefaults_NodeSpec},
 * {@code SetDefaults_NodeStatus}), on every write of it or its status (create, replace, patch):
 * {@code spec.podCIDRs} is the single {@code spec.podCIDR} when only that was sent (older kubelets and
 * IPAM controllers write one; {@code kubectl describe node} prints both), and {@code status.allocatable}
 * is the capacity when none was sent.
 */
final class NodeDefaults {
    private NodeDefaults() {}

    /** Fills in what is absent when {@code object} is a v1 Node; any other object is left as it is. */
    static void apply(ObjectNode object) {
        if (!object.path("apiVersion").asText().equals("v1") || !object.path("kind").asText().equals("Node")) {
            return;
        }
        if (object.path("spec") instanceof ObjectNode spec && !spec.path("podCIDR").asText("").isEmpty() && spec.path("podCIDRs").isEmpty()) {
            spec.putArray("podCIDRs").add(spec.path("podCIDR").asText());
        }
        JsonNode capacity = object.path("status").path("capacity");
        if (object.path("status") instanceof ObjectNode status && capacity.isObject() && !status.hasNonNull("allocatable")) {
            status.set("allocatable", capacity.deepCopy());
        }
    }
}
