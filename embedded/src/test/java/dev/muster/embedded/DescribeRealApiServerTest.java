package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code kubectl describe}, side by side with a real kube-apiserver: a custom resource and a pod that no
 * node runs print the same, once what differs by server (uids, versions, times) is replaced. The pod
 * writes out what kube-apiserver's admission plugins would add (DIFFERENCES.md entry 13).
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DescribeRealApiServerTest {
    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void kubectlDescribePrintsAPodGroupAndAPendingPodAsForKubeApiServer(RealControlPlane real) throws InterruptedException {
        Map<String, String> described = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            // given
            TestingKubectl.Result created = TestingKubectl.run(side.kubeconfig(), "create", "-f", TestingServers.manifest("""
                    apiVersion: scheduling.volcano.sh/v1beta1
                    kind: PodGroup
                    metadata: {name: described, namespace: default, labels: {app: web}}
                    spec: {minMember: 2, queue: default, minResources: {cpu: '2'}}
                    ---
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: described, namespace: default, labels: {app: web}, annotations: {scheduling.k8s.io/group-name: described}}
                    spec:
                      schedulerName: nobody
                      # what kube-apiserver's admission adds (ServiceAccount, Priority, DefaultTolerationSeconds), written out
                      serviceAccountName: default
                      automountServiceAccountToken: false
                      priority: 0
                      preemptionPolicy: PreemptLowerPriority
                      tolerations:
                      - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
                      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
                      containers: [{name: main, image: "busybox:1", resources: {requests: {cpu: 100m, memory: 64Mi}}}]
                    """).toString());
            assertThat(created.exitCode()).as(side + ": " + created.output()).isZero();

            // when
            TestingKubectl.Result podGroup = TestingKubectl.run(side.kubeconfig(), "describe", "podgroups.scheduling.volcano.sh", "described");
            TestingKubectl.Result pod = TestingKubectl.run(side.kubeconfig(), "describe", "pod", "described");

            // then
            described.put(side.name(), normalized(podGroup.exitCode() + " " + podGroup.output() + "\n---\n" + pod.exitCode() + " " + pod.output()));
        }
        String embedded = described.get(servers.embedded().name());
        assertThat(embedded).contains("Kind:         PodGroup").contains("Min Member:").contains("QoS Class:");
        assertThat(embedded).isEqualTo(described.get(TestingServers.real(real).name()));
    }

    /** Without what differs by server: uids, resource versions and times. */
    private static String normalized(String output) {
        return output.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "UID")
                .replaceAll("(Resource Version:\\s+)\\d+", "$1RV")
                .replaceAll("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z", "TIME")
                .replaceAll("(Start Time|Creation Timestamp):(\\s+).*", "$1:$2TIME");
    }
}
