package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.bridge.spark.operator.SparkOperatorApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real spark-operator v2.5.2's controller against {@code muster up --peer spark-operator}, which
 * installs and starts it beside the embedded server (with its CRDs served and the Spark bridge running).
 * The operator's Volcano example gets its PodGroup from the operator, completed by the bridge, and the
 * operator's {@code spark-submit} (Spark 4.2.0) creates the driver pod, which Muster binds. That submit
 * needs HTTPS: the operator always builds its master URL as
 * {@code k8s://https://KUBERNETES_SERVICE_HOST:KUBERNETES_SERVICE_PORT} ({@code pkg/util/util.go
 * GetMasterURL}) and Spark's client trusts the server by the kubeconfig's CA, as on a cluster; this is
 * what {@code SparkOperatorIT} checks on a real kube-apiserver.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class SparkOperatorOnMusterUpTest {
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path directory;

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(WAIT);

    @ParameterizedTest(name = "--apiserver {0}")
    @ValueSource(strings = {"embedded", "real"})
    void theOperatorsPodGroupIsCompletedByTheBridgeAndItsDriverIsBound(String apiServer) throws Exception {
        // given: muster up with the operator's controller
        KubernetesClient client = up.start(directory, "--apiserver", apiServer, "--nodes", "2:cpu=8,memory=32Gi", "--peer", "spark-operator");

        // when
        ObjectNode application;
        try (InputStream in = SparkOperatorOnMusterUpTest.class.getResourceAsStream("/spark-operator/spark-pi-volcano.yaml")) {
            application = JSON.valueToTree(client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class));
        }
        ((ObjectNode) application.path("spec")).with("sparkConf").put("spark.kubernetes.scheduler.name", "volcano");
        client.genericKubernetesResources(SparkOperatorApi.SPARK_APPLICATIONS).inNamespace("default")
                .resource(JSON.convertValue(application, GenericKubernetesResource.class)).create();

        // then: the operator's PodGroup, with the bridge's minResources (driver + 2 executors of 1 cpu and 512 + 384 MiB)
        await().atMost(WAIT).untilAsserted(() -> {
            GenericKubernetesResource podGroup = client.genericKubernetesResources(VolcanoObjects.POD_GROUPS).inNamespace("default")
                    .withName("spark-spark-pi-volcano-pg").get();
            assertThat(podGroup).as("the operator's PodGroup; application %s", state(client)).isNotNull();
            assertThat(JSON.valueToTree(podGroup).path("spec").path("minResources"))
                    .isEqualTo(JSON.valueToTree(Map.of("cpu", "3", "memory", "2688Mi")));
        });
        // and: spark-submit's driver, in that PodGroup, bound by Muster
        await().atMost(WAIT).untilAsserted(() -> {
            Pod driver = client.pods().inNamespace("default").withName("spark-pi-volcano-driver").get();
            assertThat(driver).as("the driver pod; application %s", state(client)).isNotNull();
            assertThat(driver.getMetadata().getAnnotations()).containsEntry("scheduling.k8s.io/group-name", "spark-spark-pi-volcano-pg");
            assertThat(driver.getSpec().getNodeName()).as("the driver's node; application %s", state(client)).isNotNull();
        });
    }

    private static JsonNode state(KubernetesClient client) {
        GenericKubernetesResource application = client.genericKubernetesResources(SparkOperatorApi.SPARK_APPLICATIONS).inNamespace("default")
                .withName("spark-pi-volcano").get();
        return application == null ? JSON.nullNode() : JSON.valueToTree(application).path("status");
    }
}
