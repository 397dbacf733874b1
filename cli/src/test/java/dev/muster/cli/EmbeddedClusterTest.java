package dev.muster.cli;

import static dev.muster.cli.Gangs.gang;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.embedded.NodePool;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Muster on the embedded cluster of {@code muster up}: the API server, simulated nodes and kubelet, and the scheduler. */
class EmbeddedClusterTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("PodGroup").withPlural("podgroups")
            .withNamespaced(true).build();

    private static EmbeddedCluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        EmbeddedCluster.Options options = new EmbeddedCluster.Options(0,
                List.of(NodePool.parse("cpu:2:cpu=8,memory=32Gi"), NodePool.parse("fpga:2:cpu=8,memory=32Gi,example.com/fpga=1")),
                Optional.empty(), SchedulerConfigText.builtIn(), Duration.ofMillis(100), true);
        cluster = EmbeddedCluster.start(options, Clock.systemUTC());
        client = cluster.client();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void aGangIsBoundWholeOrNotAtAll() {
        // given: 2 nodes with an FPGA each
        Gangs.create(client, gang("trio", 3, "cpu: '1', example.com/fpga: '1'", ""));
        await().atMost(WAIT).until(() -> !unschedulable("trio").isEmpty());

        // when
        Gangs.create(client, gang("duo", 2, "cpu: '1', example.com/fpga: '1'", ""));

        // then: the gang of 3 got none of the 2 FPGAs, so the gang of 2 got both
        await().atMost(WAIT).untilAsserted(() -> assertThat(nodes("duo")).containsExactlyInAnyOrder("fpga-1", "fpga-2"));
        assertThat(nodes("trio")).isEmpty();
    }

    @Test
    void aGangThatCannotFitIsMarkedUnschedulableWithItsReason() {
        Gangs.create(client, gang("giant", 2, "cpu: '12'", ""));

        await().atMost(WAIT).untilAsserted(() -> assertThat(unschedulable("giant")).contains("0/2 tasks of the gang fit"));
        assertThat(nodes("giant")).isEmpty();
    }

    @Test
    void theKubeletRunsAGangToCompletionAndItsPodGroupCompletes() {
        Gangs.create(client, gang("quick", 2, "cpu: '1'", "300ms"));

        await().atMost(WAIT).untilAsserted(() -> {
            GenericKubernetesResource podGroup = client.genericKubernetesResources(POD_GROUPS).inNamespace("default").withName("quick").get();
            assertThat(podGroup.<Object>get("status", "phase")).isEqualTo("Completed");
            assertThat(podGroup.<Object>get("status", "succeeded")).isEqualTo(2);
        });
        assertThat(pods("quick")).extracting(pod -> pod.getStatus().getPhase()).containsOnly("Succeeded");
    }

    @Test
    void aPodThatNamesNoSchedulerIsScheduledAsOnAnyCluster() {
        // given: a pod as manifests for any cluster write it; the API server names default-scheduler for it
        client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("plain-0").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox:1")
                .withNewResources().addToRequests("cpu", new Quantity("1")).endResources().endContainer().endSpec().build()).create();

        // then: Muster, the cluster's only scheduler, binds it and the kubelet runs it
        await().atMost(WAIT).untilAsserted(() -> {
            Pod pod = client.pods().inNamespace("default").withName("plain-0").get();
            assertThat(pod.getSpec().getSchedulerName()).isEqualTo("default-scheduler");
            assertThat(pod.getSpec().getNodeName()).isNotEmpty();
            assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
        });
    }

    private static List<Pod> pods(String gang) {
        return client.pods().inNamespace("default").list().getItems().stream()
                .filter(pod -> pod.getMetadata().getName().startsWith(gang + "-"))
                .toList();
    }

    private static List<String> nodes(String gang) {
        return pods(gang).stream().map(pod -> pod.getSpec().getNodeName()).filter(Objects::nonNull).toList();
    }

    /** The message of the PodGroup's Unschedulable condition, if it is true; empty otherwise. */
    @SuppressWarnings("unchecked")
    private static String unschedulable(String name) {
        GenericKubernetesResource podGroup = client.genericKubernetesResources(POD_GROUPS).inNamespace("default").withName(name).get();
        List<Map<String, Object>> conditions = podGroup == null ? null : podGroup.get("status", "conditions");
        if (conditions == null) {
            return "";
        }
        return conditions.stream()
                .filter(condition -> "Unschedulable".equals(condition.get("type")) && "True".equals(condition.get("status")))
                .map(condition -> Objects.toString(condition.get("message"), ""))
                .findFirst()
                .orElse("");
    }
}
