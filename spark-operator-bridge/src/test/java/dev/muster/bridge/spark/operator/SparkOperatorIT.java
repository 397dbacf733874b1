package dev.muster.bridge.spark.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableMap;
import dev.muster.bridge.spark.ConfMinResources;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import dev.muster.runtime.informers.KubernetesResources;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The spark-operator's own examples, unchanged but for the scheduler name (see
 * {@link SparkOperatorOnRealControlPlane}), under Muster: the real operator v2.5.2 runs the real
 * {@code spark-submit} 4.2.0, which creates the driver pod, and Muster binds it. KWOK runs no
 * container, so the driver never starts executors: the tests check what is created and bound, and
 * what the bridge wrote. Each example's driver and executors ask for 1 core and 512m, which Spark makes
 * 512 + 384 (the minimum overhead) = 896 MiB per pod.
 */
@WithRealControlPlane(nodes = 3, nodeCpu = "4", nodeMemory = "16Gi")
class SparkOperatorIT {
    // spark-submit takes a minute or two here under load, and a driver waits for Muster to admit its PodGroup
    private static final Duration WAIT = Duration.ofMinutes(5);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static SparkOperatorOnRealControlPlane operator;

    @BeforeAll
    static void startOperator(RealControlPlane controlPlane) throws InterruptedException {
        operator = SparkOperatorOnRealControlPlane.start(controlPlane);
    }

    /**
     * Removes every application and what it made: KWOK starts no executor, so an admitted application keeps its
     * PodGroup's minResources (driver and executors) in the queue's accounting while only its driver runs, and a
     * few of them would keep the next test's out of the queue; no garbage collector runs here to follow owners.
     */
    @AfterEach
    void removeApplications(KubernetesClient client) {
        client.genericKubernetesResources(SparkOperatorApi.SPARK_APPLICATIONS).inNamespace("default").delete();
        await().atMost(WAIT).until(() -> client.genericKubernetesResources(SparkOperatorApi.SPARK_APPLICATIONS).inNamespace("default")
                .list().getItems().isEmpty());
        client.pods().inNamespace("default").withLabel(SparkOperatorApi.APP_NAME_LABEL).withGracePeriod(0).delete();
        client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default").delete();
        client.genericKubernetesResources(SparkOperatorApi.COSCHEDULING_POD_GROUPS).inNamespace("default").delete();
        await().atMost(WAIT).until(() -> client.pods().inNamespace("default").withLabel(SparkOperatorApi.APP_NAME_LABEL).list().getItems()
                .isEmpty());
    }

    @AfterAll
    static void stopOperator() {
        if (operator != null) {
            operator.close();
        }
    }

    @Test
    void sparkPiWithoutABatchSchedulerHasItsDriverBoundByMuster(KubernetesClient client) {
        // when
        submit(client, TestingApplications.SPARK_PI, "muster");

        // then
        Pod driver = boundDriver(client, "spark-pi");
        assertThat(driver.getSpec().getSchedulerName()).isEqualTo("muster");
        assertThat(driver.getMetadata().getLabels()).containsEntry(SparkOperatorApi.APP_NAME_LABEL, "spark-pi");
    }

    @Test
    void volcanoExamplesPodGroupGetsTheDriverAndExecutorsWithOverheadAndItsDriverIsBound(KubernetesClient client) {
        // when
        submit(client, TestingApplications.SPARK_PI_VOLCANO, "volcano");

        // then: the operator counted 1 + 1 cpu and 512m + 512m; the application will ask for the driver and 2 executors of 896 MiB
        JsonNode podGroup = awaitMinResources(client, "spark-spark-pi-volcano-pg", ImmutableMap.of("cpu", "3", "memory", "2688Mi"));
        assertThat(podGroup.path("metadata").path("annotations").path(ConfMinResources.EXPECTED_EXECUTORS).asText()).isEqualTo("2");
        Pod driver = boundDriver(client, "spark-pi-volcano");
        assertThat(driver.getMetadata().getAnnotations()).containsEntry("scheduling.k8s.io/group-name", "spark-spark-pi-volcano-pg");
    }

    @Test
    void dynamicAllocationExampleIsSizedAtItsInitialExecutorsAndGangedAtItsMinimum(KubernetesClient client) {
        // when: the dynamic-allocation example (initial 2, min 1, max 5), sent to Volcano
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_DYNAMIC_ALLOCATION);
        TestingApplications.spec(application).put("batchScheduler", "volcano");
        submit(client, application, "volcano");

        // then
        JsonNode podGroup = awaitMinResources(client, "spark-spark-pi-dynamic-allocation-pg",
                ImmutableMap.of("cpu", "3", "memory", "2688Mi"));
        assertThat(podGroup.path("metadata").path("annotations").path(ConfMinResources.GANG_EXECUTORS).asText()).isEqualTo("1");
        boundDriver(client, "spark-pi-dynamic-allocation");
    }

    @Test
    void kubeSchedulerPathWithMusterGetsAVolcanoMirrorAndItsDriverIsBound(KubernetesClient client) {
        // when: the kube-scheduler example, naming Muster (in the operator's --kube-scheduler-names)
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_KUBE_SCHEDULER);
        TestingApplications.spec(application).put("batchScheduler", "muster");
        submit(client, application, "muster");

        // then: the operator's scheduler-plugins group, and the bridge's Volcano one of the same name
        await().atMost(WAIT).until(() -> client.genericKubernetesResources(SparkOperatorApi.COSCHEDULING_POD_GROUPS).inNamespace("default")
                .withName("spark-pi-kube-scheduler-pg").get() != null);
        JsonNode mirror = awaitMinResources(client, "spark-pi-kube-scheduler-pg", ImmutableMap.of("cpu", "3", "memory", "2688Mi"));
        assertThat(mirror.path("metadata").path("labels").path(SparkOperatorApi.MIRROR_OF).asText()).isEqualTo("scheduling.x-k8s.io");
        Pod driver = boundDriver(client, "spark-pi-kube-scheduler");
        assertThat(driver.getMetadata().getLabels()).containsEntry("scheduling.x-k8s.io/pod-group", "spark-pi-kube-scheduler-pg");
    }

    @Test
    void gpusOfDriverAndExecutorsCountAndAMissingSparkConfigMapIsAWarningNamingIt(KubernetesClient client) {
        // when: the Volcano example with a GPU for the driver and each of its 2 executors, and a ConfigMap that does not exist
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        ((ObjectNode) application.path("metadata")).put("name", "spark-pi-gpu");
        ((ObjectNode) application.path("spec").path("driver")).putObject("gpu").put("name", "nvidia.com/gpu").put("quantity", 1);
        ((ObjectNode) application.path("spec").path("executor")).putObject("gpu").put("name", "nvidia.com/gpu").put("quantity", 1);
        TestingApplications.spec(application).put("sparkConfigMap", "no-such-map");
        submit(client, application, "volcano");

        // then: the operator's group carries them (KWOK's nodes have no GPU, so the driver is not bound here)
        awaitMinResources(client, "spark-spark-pi-gpu-pg", ImmutableMap.of("cpu", "3", "memory", "2688Mi", "nvidia.com/gpu", "3"));
        await().atMost(WAIT).untilAsserted(() -> assertThat(events(client, "spark-pi-gpu"))
                .as("Events on SparkApplication spark-pi-gpu\n%s", operator.peerLogs())
                .anyMatch(event -> event.getReason().equals(SparkApplicationWriter.WARNING_REASON)
                        && event.getMessage().startsWith("spec.sparkConfigMap: ConfigMap 'default/no-such-map' does not exist")));
    }

    @Test
    void aDriverThatCannotFitGetsMustersReasonAsAnEventOnTheApplication(KubernetesClient client) {
        // when: the Volcano example with a driver of 8 cores, on nodes of 4
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        ((ObjectNode) application.path("metadata")).put("name", "spark-pi-too-big");
        ((ObjectNode) application.path("spec").path("driver")).put("cores", 8);
        submit(client, application, "volcano");

        // then
        await().atMost(WAIT).untilAsserted(() -> assertThat(events(client, "spark-pi-too-big"))
                .as("Events on SparkApplication spark-pi-too-big\n%s", operator.peerLogs())
                .anyMatch(event -> event.getReason().equals(SparkApplicationWriter.PENDING_REASON) && event.getMessage().startsWith("Muster: ")));
        await().atMost(WAIT).until(() -> client.pods().inNamespace("default").withName("spark-pi-too-big-driver").get() != null);
        assertThat(client.pods().inNamespace("default").withName("spark-pi-too-big-driver").get().getSpec().getNodeName()).isNull();
    }

    @Test
    void anUnknownQueueIsAnEventNamingTheField(KubernetesClient client) {
        // when
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        ((ObjectNode) application.path("metadata")).put("name", "spark-pi-bad-queue");
        TestingApplications.spec(application).putObject("batchSchedulerOptions").put("queue", "no-such-queue");
        submit(client, application, "volcano");

        // then
        await().atMost(WAIT).untilAsserted(() -> assertThat(events(client, "spark-pi-bad-queue"))
                .as("Events on SparkApplication spark-pi-bad-queue\n%s", operator.peerLogs())
                .anyMatch(event -> event.getReason().equals(SparkApplicationWriter.INVALID_REASON)
                        && event.getMessage().startsWith("spec.batchSchedulerOptions.queue: queue 'no-such-queue' does not exist")));
    }

    private static void submit(KubernetesClient client, String example, String schedulerName) {
        submit(client, TestingApplications.example(example), schedulerName);
    }

    /** Creates the application, with the scheduler name the operator's webhook would give its pods. */
    private static void submit(KubernetesClient client, ObjectNode application, String schedulerName) {
        TestingApplications.spec(application).with("sparkConf").put("spark.kubernetes.scheduler.name", schedulerName);
        client.genericKubernetesResources(SparkOperatorApi.SPARK_APPLICATIONS).inNamespace("default")
                .resource(JSON.convertValue(application, GenericKubernetesResource.class)).create();
    }

    private static Pod boundDriver(KubernetesClient client, String application) {
        String name = application + "-driver";
        await().atMost(WAIT).untilAsserted(() -> {
            Pod driver = client.pods().inNamespace("default").withName(name).get();
            assertThat(driver).as("driver pod %s\n%s", name, operator.peerLogs()).isNotNull();
            assertThat(driver.getSpec().getNodeName()).as("driver %s bound\n%s", name, operator.peerLogs()).isNotNull();
        });
        return client.pods().inNamespace("default").withName(name).get();
    }

    private static JsonNode awaitMinResources(KubernetesClient client, String podGroup, ImmutableMap<String, String> expected) {
        await().atMost(WAIT).untilAsserted(() -> {
            GenericKubernetesResource group = client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default")
                    .withName(podGroup).get();
            assertThat(group).as("PodGroup %s\n%s", podGroup, operator.peerLogs()).isNotNull();
            assertThat(JSON.valueToTree(group).path("spec").path("minResources")).isEqualTo(JSON.valueToTree(expected));
        });
        return JSON.valueToTree(client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default")
                .withName(podGroup).get());
    }

    private static List<Event> events(KubernetesClient client, String application) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getKind().equals(SparkOperatorApi.KIND)
                        && event.getInvolvedObject().getName().equals(application))
                .toList();
    }
}
