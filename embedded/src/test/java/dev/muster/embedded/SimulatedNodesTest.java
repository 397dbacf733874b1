package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The nodes of {@code muster up}: from pools or from a file, Ready. */
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
        assertThat(client.nodes().withName("from-file").get().getStatus().getConditions())
                .singleElement().satisfies(condition -> assertThat(condition.getType()).isEqualTo("Ready"));
        assertThat(client.configMaps().withName("ignored").get()).isNull();
    }
}
