package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.common.collect.ImmutableList;
import dev.muster.cli.examplebridge.AvoidNodePlugin;
import dev.muster.cli.examplebridge.ExampleBridgeModule;
import dev.muster.cli.examplebridge.ExampleJobController;
import dev.muster.embedded.NodePool;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bridge contract (docs/bridges.md), shown by the example bridge on {@code muster up}'s cluster:
 * its one module contributes a CRD the embedded server then serves, a controller the runtime starts,
 * and a plugin the configuration names, and none of them needs a change in the engine or the runtime.
 */
class ExampleBridgeTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("PodGroup").withPlural("podgroups").withNamespaced(true)
            .build();

    private static EmbeddedCluster cluster;
    private static KubernetesClient client;
    private static String avoided;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        // the default configuration with the bridge's plugin added to its second tier, keeping the first node free
        avoided = "node-1";
        String config = SchedulerConfigText.builtIn().text() + """
                  - name: %s
                    arguments:
                      node: %s
                """.formatted(AvoidNodePlugin.NAME, avoided);
        EmbeddedCluster.Options options = new EmbeddedCluster.Options(0, List.of(NodePool.parse("3:cpu=4,memory=16Gi")), Optional.empty(),
                new SchedulerConfigText("example-bridge.conf", config), Duration.ofMillis(100), false,
                ImmutableList.of(new ExampleBridgeModule()));
        cluster = EmbeddedCluster.start(options, Clock.systemUTC());
        client = cluster.client();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void anExampleJobBecomesAGangPlacedWhereTheBridgesPluginAllows() {
        // given: three nodes of 4 cpus, so two pods of 3 cpus need two of them
        assertThat(cluster.nodes()).contains(avoided).hasSize(3);

        // when
        GenericKubernetesResource job = new GenericKubernetesResourceBuilder()
                .withApiVersion("example.muster.dev/v1").withKind("ExampleJob")
                .withNewMetadata().withNamespace("default").withName("pair").endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("replicas", 2, "cpu", "3")))
                .build();
        client.genericKubernetesResources(ExampleJobController.EXAMPLE_JOBS).inNamespace("default").resource(job).create();

        // then: the controller wrote a PodGroup of minMember 2 and its pods, the scheduler bound both, neither on the avoided node
        await().atMost(WAIT).untilAsserted(() -> {
            List<Pod> pods = client.pods().inNamespace("default").list().getItems().stream()
                    .filter(pod -> pod.getMetadata().getName().startsWith("pair-"))
                    .toList();
            assertThat(pods).hasSize(2).allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isNotNull().isNotEqualTo(avoided));
            assertThat(pods).extracting(pod -> pod.getSpec().getNodeName()).doesNotHaveDuplicates();
        });
        GenericKubernetesResource podGroup = client.genericKubernetesResources(POD_GROUPS).inNamespace("default").withName("pair").get();
        Object minMember = podGroup.get("spec", "minMember");
        assertThat(minMember).isEqualTo(2);
        assertThat(client.apiextensions().v1().customResourceDefinitions().withName("examplejobs.example.muster.dev").get()).isNotNull();
    }
}
