package dev.muster.bridge.spark.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
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
        // first what makes applications
        client.genericKubernetesResources(SparkOperatorApi.SCHEDULED_SPARK_APPLICATIONS).inNamespace("default").delete();
        await().atMost(WAIT).until(() -> client.genericKubernetesResources(SparkOperatorApi.SCHEDULED_SPARK_APPLICATIONS)
                .inNamespace("default").list().getItems().isEmpty());
        client.genericKubernetesResources(SparkOperatorApi.SPARK_APPLICATIONS).inNamespace("default").delete();
        await().atMost(WAIT).until(() -> client.genericKubernetesResources(SparkOperatorApi.SPARK_APPLICATIONS).inNamespace("default")
                .list().getItems().isEmpty());
        client.genericKubernetesResources(KubernetesResources.VOLCANO_POD_GROUPS).inNamespace("default").delete();
        client.genericKubernetesResources(SparkOperatorApi.COSCHEDULING_POD_GROUPS).inNamespace("default").delete();
        // deleted again until none is left: a spark-submit the operator started before its application went may still
        // create its driver pod after the first delete (seen on a loaded machine)
        await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).until(() -> {
            client.pods().inNamespace("default").withLabel(SparkOperatorApi.APP_NAME_LABEL).withGracePeriod(0).delete();
            return client.pods().inNamespace("default").withLabel(SparkOperatorApi.APP_NAME_LABEL).list().getItems().isEmpty();
        });
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

    @Test
    void aScheduledSparkApplicationsRunsAreCompletedAndToldAsSubmittedOnesAndABadTemplateOnItToo(KubernetesClient client) {
        // given: the queue and priority class a template names
        createQueue(client, "nightly");
        client.scheduling().v1().priorityClasses().resource(new PriorityClassBuilder().withNewMetadata().withName("nightly-batch")
                .endMetadata().withValue(1000).build()).serverSideApply();

        // when: every 10 s, one run at a time, the Volcano example with batchSchedulerOptions; and one whose template has a
        // negative minExecutors (the CRD's minimum 1 on executor.instances keeps that one out, dynamicAllocation has none)
        ObjectNode good = TestingApplications.spec(TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO)).deepCopy();
        good.putObject("batchSchedulerOptions").put("queue", "nightly").put("priorityClassName", "nightly-batch");
        good.putObject("sparkConf").put("spark.kubernetes.scheduler.name", "volcano");
        ObjectNode bad = good.deepCopy();
        bad.putObject("dynamicAllocation").put("enabled", true).put("minExecutors", -1).put("maxExecutors", 4);
        // and one whose driver (8 cores) fits no node of 4
        ObjectNode big = TestingApplications.spec(TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO)).deepCopy();
        ((ObjectNode) big.path("driver")).put("cores", 8);
        big.putObject("sparkConf").put("spark.kubernetes.scheduler.name", "volcano");
        scheduled(client, "nightly-pi", good);
        scheduled(client, "nightly-bad", bad);
        scheduled(client, "nightly-big", big);

        // then: the first run is the operator's SparkApplication of the template, its PodGroup completed as a submitted one's
        String run = awaitFirstRun(client, "nightly-pi");
        GenericKubernetesResource application = client.genericKubernetesResources(SparkOperatorApi.SPARK_APPLICATIONS).inNamespace("default")
                .withName(run).get();
        assertThat(application.getMetadata().getLabels()).containsEntry(SparkOperatorApi.SCHEDULED_APP_NAME_LABEL, "nightly-pi");
        assertThat(application.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getKind() + "/" + owner.getName()).isEqualTo("ScheduledSparkApplication/nightly-pi"));
        JsonNode podGroup = awaitMinResources(client, SparkOperatorApi.volcanoPodGroupName(run),
                ImmutableMap.of("cpu", "3", "memory", "2688Mi"));
        assertThat(podGroup.path("spec").path("queue").asText() + " " + podGroup.path("spec").path("priorityClassName").asText())
                .isEqualTo("nightly nightly-batch");
        assertThat(podGroup.path("metadata").path("annotations").path(ConfMinResources.EXPECTED_EXECUTORS).asText()).isEqualTo("2");
        Pod driver = boundDriver(client, run);
        assertThat(driver.getMetadata().getAnnotations()).containsEntry("scheduling.k8s.io/group-name", SparkOperatorApi.volcanoPodGroupName(run));

        // and the bad template: on its run and on the ScheduledSparkApplication, naming the field and the value
        String badRun = awaitFirstRun(client, "nightly-bad");
        suspend(client, "nightly-bad");
        String problem = "dynamicAllocation.minExecutors: spark.dynamicAllocation.minExecutors: -1 is negative";
        await().atMost(WAIT).untilAsserted(() -> assertThat(events(client, badRun))
                .as("Events on SparkApplication %s\n%s", badRun, operator.peerLogs())
                .anyMatch(event -> event.getReason().equals(SparkApplicationWriter.INVALID_REASON)
                        && event.getMessage().startsWith("spec." + problem)));
        await().atMost(WAIT).untilAsserted(() -> assertThat(events(client, SparkOperatorApi.SCHEDULED_KIND, "nightly-bad"))
                .anyMatch(event -> event.getReason().equals(SparkApplicationWriter.INVALID_REASON)
                        && event.getMessage().startsWith("spec.template." + problem)));

        // and the run that cannot fit has Muster's reason as an Event on it, as a submitted application has
        String bigRun = awaitFirstRun(client, "nightly-big");
        suspend(client, "nightly-big");
        await().atMost(WAIT).untilAsserted(() -> assertThat(events(client, bigRun))
                .as("Events on SparkApplication %s\n%s", bigRun, operator.peerLogs())
                .anyMatch(event -> event.getReason().equals(SparkApplicationWriter.PENDING_REASON) && event.getMessage().startsWith("Muster: ")));

        // and with concurrencyPolicy Forbid the good one makes no second run while the first runs, though its schedule came again
        Instant next = Instant.parse(scheduledStatus(client, "nightly-pi").path("nextRun").asText());
        await().atMost(WAIT).until(() -> Instant.now().isAfter(next.plusSeconds(5)));
        assertThat(runs(client, "nightly-pi")).containsExactly(run);
    }

    @Test
    void aNegativeExecutorInstancesIsRefusedByTheApiServerNamingTheFieldAndValue(KubernetesClient client) {
        // given: the Volcano example with -1 executors, which the operator's CRD (minimum 1) does not admit
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        ((ObjectNode) application.path("metadata")).put("name", "spark-pi-negative");
        ((ObjectNode) application.path("spec").path("executor")).put("instances", -1);

        // when, then: refused on create, so no run of the operator or of the bridge ever sees it
        assertThatThrownBy(() -> submit(client, application, "volcano"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422))
                .hasMessageContaining("spec.executor.instances").hasMessageContaining("-1");
        assertThat(client.genericKubernetesResources(SparkOperatorApi.SPARK_APPLICATIONS).inNamespace("default")
                .withName("spark-pi-negative").get()).isNull();
    }

    private static void createQueue(KubernetesClient client, String name) {
        ObjectNode queue = JSON.createObjectNode().put("apiVersion", "scheduling.volcano.sh/v1beta1").put("kind", "Queue");
        queue.putObject("metadata").put("name", name);
        queue.putObject("spec").put("weight", 1);
        client.genericKubernetesResources(KubernetesResources.QUEUES).resource(JSON.convertValue(queue, GenericKubernetesResource.class))
                .serverSideApply();
    }

    private static void scheduled(KubernetesClient client, String name, ObjectNode template) {
        ObjectNode object = JSON.createObjectNode().put("apiVersion", SparkOperatorApi.API_VERSION).put("kind", SparkOperatorApi.SCHEDULED_KIND);
        object.putObject("metadata").put("name", name).put("namespace", "default");
        object.putObject("spec").put("schedule", "@every 10s").put("concurrencyPolicy", "Forbid").set("template", template);
        client.genericKubernetesResources(SparkOperatorApi.SCHEDULED_SPARK_APPLICATIONS).inNamespace("default")
                .resource(JSON.convertValue(object, GenericKubernetesResource.class)).create();
    }

    /** No more of its runs, each a spark-submit. */
    private static void suspend(KubernetesClient client, String name) {
        client.genericKubernetesResources(SparkOperatorApi.SCHEDULED_SPARK_APPLICATIONS).inNamespace("default").withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\": {\"suspend\": true}}");
    }

    private static JsonNode scheduledStatus(KubernetesClient client, String name) {
        return JSON.valueToTree(client.genericKubernetesResources(SparkOperatorApi.SCHEDULED_SPARK_APPLICATIONS).inNamespace("default")
                .withName(name).get()).path("status");
    }

    /** The run the operator names in the ScheduledSparkApplication's {@code status.lastRunName}, once it exists. */
    private static String awaitFirstRun(KubernetesClient client, String name) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(runs(client, name)).as("runs of %s\n%s", name, operator.peerLogs()).isNotEmpty());
        String run = runs(client, name).get(0);
        await().atMost(WAIT).until(() -> scheduledStatus(client, name).path("lastRunName").asText("").equals(run));
        return run;
    }

    private static List<String> runs(KubernetesClient client, String scheduled) {
        return client.genericKubernetesResources(SparkOperatorApi.SPARK_APPLICATIONS).inNamespace("default")
                .withLabel(SparkOperatorApi.SCHEDULED_APP_NAME_LABEL, scheduled).list().getItems().stream()
                .map(application -> application.getMetadata().getName()).sorted().toList();
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
        return events(client, SparkOperatorApi.KIND, application);
    }

    private static List<Event> events(KubernetesClient client, String kind, String name) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(event -> event.getInvolvedObject().getKind().equals(kind) && event.getInvolvedObject().getName().equals(name))
                .toList();
    }
}
