package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code kubectl describe node}, side by side with a real kube-apiserver: a node registered as a kubelet
 * registers one, with its Lease, two running pods bound to it, a finished one and one on another node,
 * and Events on it as a kubelet (uid = the node's name) and a controller (uid = the node's uid) write
 * them, prints the same once what differs by server (uids, versions, times) is replaced. kubectl finds the
 * pods with the field selector {@code spec.nodeName=NODE,status.phase!=Failed,status.phase!=Succeeded} and
 * the Events with {@code involvedObject.*}, and sums the pods' requests and limits itself.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DescribeNodeRealApiServerTest {
    private static final String NODE = "described-node";

    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void kubectlDescribeNodePrintsItsPodsAllocatedResourcesLeaseAndEventsAsForKubeApiServer(RealControlPlane real)
            throws InterruptedException {
        Map<String, String> described = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            // given
            Node node = register(side);
            TestingKubectl.Result created = TestingKubectl.run(side.kubeconfig(), "create", "-f", TestingServers.manifest(
                    aroundTheNode(node.getMetadata().getUid())).toString());
            assertThat(created.exitCode()).as(side + ": " + created.output()).isZero();
            side.client().pods().inNamespace("default").withName("bound-finished").editStatus(pod -> {
                pod.getStatus().setPhase("Succeeded");
                return pod;
            });

            // when
            TestingKubectl.Result description = TestingKubectl.run(side.kubeconfig(), "describe", "node", NODE);

            // then
            described.put(side.name(), normalized(description.exitCode() + " " + description.output()));
        }
        String embedded = described.get(servers.embedded().name());
        assertThat(embedded).contains("Non-terminated Pods:          (2 in total)").contains("bound-guaranteed").contains("bound-burstable")
                .doesNotContain("bound-finished").doesNotContain("elsewhere")
                .contains("RegisteredNode").contains("NodeHasSufficientMemory").doesNotContain("Rebooted")
                .contains("HolderIdentity:  " + NODE);
        assertThat(embedded).isEqualTo(described.get(TestingServers.real(real).name()));
    }

    @Test
    void aNodeWrittenWithAPodCidrAndACapacityOnlyIsStoredWithTheDefaultsKubeApiServerGivesIt(RealControlPlane real) {
        Map<String, String> stored = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            // given: a node written with its single pod CIDR, and a status with a capacity alone
            side.client().nodes().resource(new NodeBuilder()
                    .withNewMetadata().withName("defaulted-node").endMetadata()
                    .withNewSpec().withPodCIDR("10.244.2.0/24").endSpec()
                    .build()).create();

            // when
            side.client().nodes().withName("defaulted-node").editStatus(node -> {
                node.setStatus(new NodeStatusBuilder()
                        .addToCapacity("cpu", new Quantity("2"))
                        .addToCapacity("pods", new Quantity("10"))
                        .build());
                return node;
            });

            // then
            Node node = side.client().nodes().withName("defaulted-node").get();
            stored.put(side.name(), node.getSpec().getPodCIDRs() + " " + node.getStatus().getAllocatable());
        }
        assertThat(stored.get(servers.embedded().name())).isEqualTo("[10.244.2.0/24] {cpu=2, pods=10}")
                .isEqualTo(stored.get(TestingServers.real(real).name()));
    }

    /**
     * The node's Lease; two running pods bound to it, a finished one and one on another node; Events on it as a kubelet
     * (uid = the node's name) and the node controller (uid = the node's) write them, and one on another node.
     */
    private static String aroundTheNode(String uid) {
        return """
                apiVersion: coordination.k8s.io/v1
                kind: Lease
                metadata: {name: %1$s, namespace: kube-node-lease}
                spec: {holderIdentity: %1$s, leaseDurationSeconds: 40, renewTime: "2026-01-02T03:04:05.000000Z"}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: bound-guaranteed, namespace: default}
                spec:
                  nodeName: %1$s
                  %2$s
                  containers:
                  - {name: main, image: "busybox:1", resources: {requests: {cpu: 500m, memory: 256Mi}, limits: {cpu: 500m, memory: 256Mi}}}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: bound-burstable, namespace: default}
                spec:
                  nodeName: %1$s
                  %2$s
                  containers:
                  - {name: main, image: "busybox:1", resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {memory: 128Mi}}}
                  - {name: side, image: "busybox:1"}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: bound-finished, namespace: default}
                spec:
                  nodeName: %1$s
                  %2$s
                  containers: [{name: main, image: "busybox:1", resources: {requests: {cpu: '1'}}}]
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: elsewhere, namespace: default}
                spec:
                  nodeName: another-node
                  %2$s
                  containers: [{name: main, image: "busybox:1", resources: {requests: {cpu: '2'}}}]
                ---
                apiVersion: v1
                kind: Event
                metadata: {name: %1$s.kubelet, namespace: default}
                involvedObject: {kind: Node, name: %1$s, uid: %1$s}
                reason: NodeHasSufficientMemory
                message: "Node %1$s status is now: NodeHasSufficientMemory"
                type: Normal
                source: {component: kubelet, host: %1$s}
                count: 3
                ---
                apiVersion: v1
                kind: Event
                metadata: {name: %1$s.controller, namespace: default}
                involvedObject: {kind: Node, name: %1$s, uid: %3$s}
                reason: RegisteredNode
                message: "Node %1$s event: Registered Node %1$s in Controller"
                type: Normal
                source: {component: node-controller}
                ---
                apiVersion: v1
                kind: Event
                metadata: {name: another-node.kubelet, namespace: default}
                involvedObject: {kind: Node, name: another-node, uid: another-node}
                reason: Rebooted
                message: "Node another-node has been rebooted"
                type: Warning
                source: {component: kubelet, host: another-node}
                """.formatted(NODE, WRITTEN_OUT_ADMISSION, uid);
    }

    /** What kube-apiserver's admission plugins add to a pod (DIFFERENCES.md entry 13), written out. */
    private static final String WRITTEN_OUT_ADMISSION = String.join("\n  ",
            "serviceAccountName: default",
            "automountServiceAccountToken: false",
            "priority: 0",
            "preemptionPolicy: PreemptLowerPriority",
            "tolerations:",
            "- {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}",
            "- {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}");


    /**
     * Registers the node as a kubelet does (the object, then its status), and gives it one taint of its own, which
     * replaces the {@code not-ready} one kube-apiserver's admission adds (DIFFERENCES.md entry 10).
     */
    private static Node register(Side side) throws InterruptedException {
        TestingKubectl.Result created = TestingKubectl.run(side.kubeconfig(), "create", "-f", TestingServers.manifest("""
                apiVersion: v1
                kind: Node
                metadata:
                  name: %1$s
                  labels: {kubernetes.io/hostname: %1$s, kubernetes.io/os: linux, kubernetes.io/arch: amd64}
                  annotations: {node.alpha.kubernetes.io/ttl: "0"}
                spec:
                  podCIDR: 10.244.1.0/24
                  taints: [{key: example.com/dedicated, value: batch, effect: NoSchedule}]
                """.formatted(NODE)).toString());
        assertThat(created.exitCode()).as(side + ": " + created.output()).isZero();
        side.client().nodes().withName(NODE).editStatus(node -> {
            node.setStatus(new NodeStatusBuilder()
                    .addToCapacity("cpu", new Quantity("4"))
                    .addToCapacity("memory", new Quantity("8Gi"))
                    .addToCapacity("pods", new Quantity("110"))
                    .addToAllocatable("cpu", new Quantity("3800m"))
                    .addToAllocatable("memory", new Quantity("7Gi"))
                    .addToAllocatable("pods", new Quantity("110"))
                    .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady")
                    .withMessage("kubelet is posting ready status").withLastHeartbeatTime("2026-01-02T03:04:05Z")
                    .withLastTransitionTime("2026-01-02T03:04:05Z").endCondition()
                    .addNewAddress().withType("InternalIP").withAddress("10.1.2.3").endAddress()
                    .addNewAddress().withType("Hostname").withAddress(NODE).endAddress()
                    .withNewNodeInfo().withMachineID("m").withSystemUUID("s").withBootID("b").withKernelVersion("6.1.0")
                    .withOsImage("Debian GNU/Linux 12").withContainerRuntimeVersion("containerd://2.0.0")
                    .withKubeletVersion(RealControlPlane.KUBERNETES_VERSION).withKubeProxyVersion("").withOperatingSystem("linux")
                    .withArchitecture("amd64").endNodeInfo()
                    .build());
            return node;
        });
        return side.client().nodes().withName(NODE).edit(node -> {
            node.getSpec().setTaints(List.of(new TaintBuilder()
                    .withKey("example.com/dedicated").withValue("batch").withEffect("NoSchedule").build()));
            return node;
        });
    }

    /** Without what differs by server: uids, resource versions and times. */
    private static String normalized(String output) {
        return output.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "UID")
                .replaceAll("(CreationTimestamp:\\s+).*", "$1TIME")
                // the pods' ages, in the table's last column: seconds, as the scenario takes less than two minutes
                .replaceAll("(?m) \\d+s$", " AGE");
    }
}
