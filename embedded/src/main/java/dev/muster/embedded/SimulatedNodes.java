package dev.muster.embedded;

import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Creates the nodes of the embedded cluster: Ready, with the resources of their pool or file. Nothing runs on them. */
public final class SimulatedNodes {

    private SimulatedNodes() {}

    /** Creates every pool's nodes; pools sharing a prefix number their nodes on from each other. Returns the names. */
    public static List<String> create(KubernetesClient client, List<NodePool> pools) {
        Map<String, Integer> next = new HashMap<>();
        List<String> names = new ArrayList<>();
        for (NodePool pool : pools) {
            int first = next.getOrDefault(pool.prefix(), 1);
            for (int index = first; index < first + pool.count(); index++) {
                String name = pool.nodeName(index);
                client.resource(node(name, pool)).create();
                names.add(name);
            }
            next.put(pool.prefix(), first + pool.count());
        }
        return names;
    }

    /**
     * Creates the Node objects of a YAML or JSON file (other kinds in it are ignored), Ready unless they
     * say otherwise. Returns the names.
     */
    public static List<String> createFromFile(KubernetesClient client, Path file) throws IOException {
        List<String> names = new ArrayList<>();
        try (InputStream input = Files.newInputStream(file)) {
            for (HasMetadata object : client.load(input).items()) {
                if (object instanceof Node node) {
                    if (node.getStatus() == null || node.getStatus().getConditions() == null
                            || node.getStatus().getConditions().isEmpty()) {
                        node = new NodeBuilder(node).editOrNewStatus().withConditions(ready()).endStatus().build();
                    }
                    client.resource(node).create();
                    names.add(node.getMetadata().getName());
                }
            }
        }
        return names;
    }

    static Node node(String name, NodePool pool) {
        return new NodeBuilder()
                .withNewMetadata()
                    .withName(name)
                    .addToLabels("kubernetes.io/hostname", name)
                    .addToLabels(SchedulingApi.POOL_LABEL, pool.prefix())
                .endMetadata()
                .withNewStatus()
                    .withCapacity(pool.allocatable())
                    .withAllocatable(pool.allocatable())
                    .withConditions(ready())
                .endStatus()
                .build();
    }

    private static io.fabric8.kubernetes.api.model.NodeCondition ready() {
        return new NodeConditionBuilder().withType("Ready").withStatus("True").withReason("KubeletReady")
                .withMessage("simulated by muster up").build();
    }
}
