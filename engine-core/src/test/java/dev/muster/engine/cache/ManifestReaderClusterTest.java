package dev.muster.engine.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.HyperNode;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.QueueState;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Taint;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How Nodes, Queues and HyperNodes are read. */
class ManifestReaderClusterTest {
    private static final ManifestReader READER = new ManifestReader(Set.of("volcano"));

    private static ManifestResult read(String yaml) {
        return READER.read("cluster.yaml", yaml);
    }

    private static ImmutableList<String> describe(ManifestResult result) {
        return result.problems().stream().map(ManifestProblem::describe).collect(ImmutableList.toImmutableList());
    }

    @Test
    void mapsANode() {
        String yaml = """
                apiVersion: v1
                kind: Node
                metadata: {name: n1, labels: {zone: a}}
                spec:
                  unschedulable: true
                  taints: [{key: gpu, value: "yes", effect: NoSchedule}]
                status:
                  capacity: {cpu: "8", memory: 16Gi, pods: "110", nvidia.com/gpu: "4"}
                  allocatable: {cpu: 7500m, memory: 15Gi, pods: "64", nvidia.com/gpu: "4", ephemeral-storage: 100Gi}
                  conditions: [{type: MemoryPressure, status: "False"}, {type: Ready, status: "False"}]
                """;

        ClusterNode node = read(yaml).snapshot().nodes().get(new NodeName("n1"));

        assertThat(node.allocatable()).isEqualTo(Resources.of(7500, 15 * 1073741824.0).withScalar("nvidia.com/gpu", 4000));
        assertThat(node.capacity()).isEqualTo(Resources.of(8000, 16 * 1073741824.0).withScalar("nvidia.com/gpu", 4000));
        assertThat(node.maxPods()).isEqualTo(64);
        assertThat(node.labels()).isEqualTo(ImmutableMap.of("zone", "a"));
        assertThat(node.taints()).containsExactly(new Taint("gpu", "yes", "NoSchedule"));
        assertThat(node.unschedulable()).isTrue();
        assertThat(node.ready()).isFalse();
    }

    @Test
    void aNodeWithoutAllocatableOffersItsCapacity() {
        String yaml = """
                apiVersion: v1
                kind: Node
                metadata: {name: n1}
                status: {capacity: {cpu: "4"}}
                """;

        ClusterNode node = read(yaml).snapshot().nodes().get(new NodeName("n1"));

        assertThat(node.allocatable()).isEqualTo(Resources.of(4000, 0));
        assertThat(node.capacity()).isEqualTo(Resources.of(4000, 0));
        assertThat(node.maxPods()).isEqualTo(110);
        assertThat(node.ready()).isTrue();
    }

    @Test
    void aNodeWithABadQuantityIsLeftOut() {
        String yaml = """
                apiVersion: v1
                kind: Node
                metadata: {name: n1}
                status: {allocatable: {cpu: "-4"}}
                """;

        ManifestResult result = read(yaml);

        assertThat(result.snapshot().nodes()).isEmpty();
        assertThat(describe(result)).containsExactly("cluster.yaml[0] Node n1: status.allocatable.cpu: '-4' is negative");
    }

    @Test
    void mapsAQueue() {
        String yaml = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata:
                  name: research
                  uid: q-1
                  creationTimestamp: "2026-01-01T00:00:00Z"
                  annotations: {volcano.sh/hierarchy: root/research}
                spec:
                  weight: 3
                  capability: {cpu: "10", nvidia.com/gpu: "8"}
                  guarantee: {resource: {cpu: "2"}}
                  deserved: {memory: 4Gi}
                  parent: root
                  priority: 5
                  reclaimable: false
                status: {state: Closed}
                """;

        Queue queue = read(yaml).snapshot().queues().get(new QueueName("research"));

        assertThat(queue).isEqualTo(new Queue(new QueueName("research"), "q-1", 3,
                Optional.of(Resources.of(10000, 0).withScalar("nvidia.com/gpu", 8000)), Resources.of(2000, 0),
                Optional.of(Resources.of(0, 4 * 1073741824.0)), Optional.of(new QueueName("root")), 5, false,
                QueueState.CLOSED, Instant.parse("2026-01-01T00:00:00Z"), ImmutableMap.of("volcano.sh/hierarchy", "root/research")));
    }

    @Test
    void defaultsAQueueAndAddsTheDefaultQueue() {
        String yaml = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: research}
                spec: {capability: {}}
                """;

        ManifestResult result = read(yaml);

        Queue queue = result.snapshot().queues().get(new QueueName("research"));
        assertThat(queue.uid()).isEqualTo("research");
        assertThat(queue.weight()).isEqualTo(1);
        assertThat(queue.capability()).isEmpty();
        assertThat(queue.deserved()).isEmpty();
        assertThat(queue.guarantee()).isEqualTo(Resources.EMPTY);
        assertThat(queue.parent()).isEmpty();
        assertThat(queue.reclaimable()).isTrue();
        assertThat(queue.state()).isEqualTo(QueueState.OPEN);
        assertThat(result.snapshot().queues()).containsOnlyKeys(new QueueName("research"), Queue.DEFAULT);
        assertThat(result.snapshot().queues().get(Queue.DEFAULT).state()).isEqualTo(QueueState.OPEN);
    }

    @Test
    void keepsTheDefaultQueueOfTheManifests() {
        String yaml = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: default}
                spec: {weight: 4}
                """;

        assertThat(read(yaml).snapshot().queues().get(Queue.DEFAULT).weight()).isEqualTo(4);
    }

    @Test
    void aQueueWithABadQuantityIsKeptWithoutIt() {
        String yaml = """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: research}
                spec: {capability: {cpu: lots, memory: 1Gi}, weight: -2}
                """;

        ManifestResult result = read(yaml);

        Queue queue = result.snapshot().queues().get(new QueueName("research"));
        assertThat(queue.capability()).contains(Resources.of(0, 1073741824.0));
        assertThat(queue.weight()).isEqualTo(1);
        assertThat(describe(result)).containsExactly(
                "cluster.yaml[0] Queue research: spec.weight: -2 is negative; read as 1",
                "cluster.yaml[0] Queue research: spec.capability.cpu: 'lots' is not a Kubernetes quantity");
    }

    @Test
    void mapsAHyperNode() {
        String yaml = """
                apiVersion: topology.volcano.sh/v1alpha1
                kind: HyperNode
                metadata: {name: s0}
                spec:
                  tier: 1
                  tierName: leaf
                  members:
                    - {type: Node, selector: {exactMatch: {name: n1}}}
                    - {type: Node, selector: {regexMatch: {pattern: "^gpu-.*"}}}
                    - {type: HyperNode, selector: {labelMatch: {matchLabels: {rack: r1}}}}
                """;

        ManifestResult result = read(yaml);

        assertThat(result.problems()).isEmpty();
        assertThat(result.snapshot().hyperNodes()).containsExactly(new HyperNode("s0", 1, "leaf", ImmutableList.of(
                new HyperNode.Member(false, "n1", "", ImmutableMap.of()),
                new HyperNode.Member(false, "", "^gpu-.*", ImmutableMap.of()),
                new HyperNode.Member(true, "", "", ImmutableMap.of("rack", "r1")))));
    }

    @Test
    void aHyperNodeWithABadMemberIsLeftOut() {
        String yaml = """
                apiVersion: topology.volcano.sh/v1alpha1
                kind: HyperNode
                metadata: {name: s0}
                spec:
                  tier: 1
                  members:
                    - {type: Node, selector: {regexMatch: {pattern: "gpu-["}}}
                    - {type: Switch, selector: {exactMatch: {name: n1}}}
                    - {type: Node, selector: {exactMatch: {name: n1}, regexMatch: {pattern: n.*}}}
                """;

        ManifestResult result = read(yaml);

        assertThat(result.snapshot().hyperNodes()).isEmpty();
        assertThat(describe(result)).containsExactly(
                "cluster.yaml[0] HyperNode s0: spec.members[0].selector.regexMatch.pattern: "
                        + "'gpu-[' is not a regular expression: Unclosed character class",
                "cluster.yaml[0] HyperNode s0: spec.members[1].type: 'Switch' is not one of Node, HyperNode",
                "cluster.yaml[0] HyperNode s0: spec.members[2].selector: needs exactly one of exactMatch, regexMatch, labelMatch");
    }

    @Test
    void reportsFieldsOfTheWrongType() {
        String yaml = """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: high}
                value: very
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: n1, labels: [a, b]}
                spec: {unschedulable: "yes"}
                """;

        ManifestResult result = read(yaml);

        assertThat(result.snapshot().priorityClasses()).isEmpty();
        assertThat(result.snapshot().nodes()).isEmpty();
        assertThat(describe(result)).containsExactly(
                "cluster.yaml[0] PriorityClass high: value: 'very' is not an integer",
                "cluster.yaml[1] Node n1: metadata.labels: expected a map, found a list",
                "cluster.yaml[1] Node n1: spec.unschedulable: 'yes' is not a boolean");
    }
}
