package dev.muster.peers;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.fabric8.kubernetes.api.model.Quantity;

/**
 * What a {@link RealControlPlane} is started with: how many nodes it registers and what each offers
 * (capacity and allocatable alike, as Kubernetes quantities).
 */
public record ControlPlaneSpec(int nodes, String nodeCpu, String nodeMemory, int nodePods) {
    public static final ControlPlaneSpec DEFAULT = new ControlPlaneSpec(3, "8", "32Gi", 110);

    public ControlPlaneSpec {
        checkArgument(nodes >= 0, "nodes must not be negative: %s", nodes);
        requireNonNull(nodeCpu, "nodeCpu is null");
        requireNonNull(nodeMemory, "nodeMemory is null");
        checkArgument(nodePods > 0, "nodePods must be positive: %s", nodePods);
        // parse at the boundary: a bad quantity fails here, not as a 422 from the API server
        checkArgument(Quantity.getAmountInBytes(new Quantity(nodeCpu)).signum() > 0, "nodeCpu must be positive: %s", nodeCpu);
        checkArgument(Quantity.getAmountInBytes(new Quantity(nodeMemory)).signum() > 0, "nodeMemory must be positive: %s", nodeMemory);
    }

    public static ControlPlaneSpec of(WithRealControlPlane annotation) {
        return new ControlPlaneSpec(annotation.nodes(), annotation.nodeCpu(), annotation.nodeMemory(), annotation.nodePods());
    }

    public ControlPlaneSpec withNodes(int count) {
        return new ControlPlaneSpec(count, nodeCpu, nodeMemory, nodePods);
    }
}
