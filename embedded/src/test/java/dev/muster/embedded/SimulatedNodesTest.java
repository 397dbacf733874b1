package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The nodes of {@code muster up}: from pools or from a file, registered as a kubelet registers its node. */
class SimulatedNodesTest {
    private static EmbeddedApiServer server;
    private static KubernetesClient client;

    @TempDir
    Path directory;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void poolsSharingAPrefixNumberTheirNodesOnFromEachOther() {
        List<String> names = SimulatedNodes.create(client, List.of(NodePool.parse("pool:2:cpu=4"), NodePool.parse("pool:1:cpu=8")));

        assertThat(names).containsExactly("pool-1", "pool-2", "pool-3");
        Node third = client.nodes().withName("pool-3").get();
        assertThat(third.getStatus().getAllocatable()).containsKeys("cpu", "pods");
        assertThat(third.getStatus().getConditions()).anySatisfy(condition -> {
            assertThat(condition.getType()).isEqualTo("Ready");
            assertThat(condition.getStatus()).isEqualTo("True");
        });
    }

    @Test
    void aPoolsNodesCarryTheKubeletsLabelsConditionsAddressesAndTheirPoolsLabels() {
        SimulatedNodes.create(client, List.of(NodePool.parse("zoned:2:cpu=4:zone=eu-west-1a,instance-type=m5.xlarge")),
                Clock.fixed(Instant.parse("2026-12-02T01:00:00.400Z"), ZoneOffset.UTC));

        Node node = client.nodes().withName("zoned-2").get();
        assertThat(node.getMetadata().getLabels()).containsAllEntriesOf(Map.of(
                "kubernetes.io/hostname", "zoned-2",
                "kubernetes.io/os", "linux",
                "kubernetes.io/arch", "amd64",
                "beta.kubernetes.io/os", "linux",
                "beta.kubernetes.io/arch", "amd64",
                "topology.kubernetes.io/zone", "eu-west-1a",
                "node.kubernetes.io/instance-type", "m5.xlarge"));
        assertThat(node.getStatus().getConditions()).extracting(NodeCondition::getType, NodeCondition::getStatus, NodeCondition::getReason)
                .containsExactly(
                        tuple("MemoryPressure", "False", "KubeletHasSufficientMemory"),
                        tuple("DiskPressure", "False", "KubeletHasNoDiskPressure"),
                        tuple("PIDPressure", "False", "KubeletHasSufficientPID"),
                        tuple("Ready", "True", "KubeletReady"));
        assertThat(node.getStatus().getConditions()).allSatisfy(condition -> {
            assertThat(condition.getLastHeartbeatTime()).isEqualTo("2026-12-02T01:00:00Z");
            assertThat(condition.getLastTransitionTime()).isEqualTo("2026-12-02T01:00:00Z");
        });
        assertThat(node.getStatus().getAddresses()).extracting(NodeAddress::getType, NodeAddress::getAddress)
                .containsExactly(tuple("InternalIP", "10.0.0.3"), tuple("Hostname", "zoned-2"));
        assertThat(node.getStatus().getNodeInfo().getOperatingSystem()).isEqualTo("linux");
        assertThat(node.getStatus().getNodeInfo().getKubeletVersion()).isEqualTo(Discovery.GIT_VERSION);
        assertThat(node.getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort()).isEqualTo(10250);
    }

    @Test
    void aNodeFromAFileKeepsItsOwnLabelsAndConditions() throws Exception {
        Path file = directory.resolve("arm.yaml");
        Files.writeString(file, """
                apiVersion: v1
                kind: Node
                metadata: {name: arm-broken, labels: {kubernetes.io/arch: arm64, team: ml}}
                status:
                  allocatable: {cpu: "16"}
                  conditions: [{type: Ready, status: "False", reason: KubeletNotReady}]
                """, StandardCharsets.UTF_8);

        SimulatedNodes.createFromFile(client, file);

        Node node = client.nodes().withName("arm-broken").get();
        assertThat(node.getMetadata().getLabels()).containsAllEntriesOf(Map.of(
                "kubernetes.io/arch", "arm64", "team", "ml", "kubernetes.io/hostname", "arm-broken", "kubernetes.io/os", "linux"));
        assertThat(node.getStatus().getConditions()).singleElement()
                .satisfies(condition -> assertThat(condition.getStatus()).isEqualTo("False"));
    }

    @Test
    void nodesFromAFileAreCreatedReadyAndOtherKindsIgnored() throws Exception {
        Path file = directory.resolve("nodes.yaml");
        Files.writeString(file, """
                apiVersion: v1
                kind: Node
                metadata: {name: from-file}
                status:
                  allocatable: {cpu: "16", memory: 64Gi}
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: ignored, namespace: default}
                """, StandardCharsets.UTF_8);

        List<String> names = SimulatedNodes.createFromFile(client, file);

        assertThat(names).containsExactly("from-file");
        assertThat(client.nodes().withName("from-file").get().getStatus().getConditions()).extracting(NodeCondition::getType)
                .containsExactly("MemoryPressure", "DiskPressure", "PIDPressure", "Ready");
        assertThat(client.configMaps().withName("ignored").get()).isNull();
    }
}
