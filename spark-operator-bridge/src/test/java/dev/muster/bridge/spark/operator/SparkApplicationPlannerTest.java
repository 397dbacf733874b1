package dev.muster.bridge.spark.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.bridge.spark.ConfMinResources;
import dev.muster.bridge.spark.operator.SparkApplicationPlan.PodGroupSpec;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Plans for the spark-operator's own examples: the PodGroups its batch schedulers make, completed with
 * what the application will really request. The examples' driver and executors ask for 1 core and
 * 512m each, which Spark 4.2.0 makes 512 + 384 (the minimum overhead) = 896 MiB per pod.
 */
class SparkApplicationPlannerTest {
    private static final ImmutableSet<String> QUEUES = ImmutableSet.of("default", "etl");

    @Test
    void theOperatorsVolcanoGroupGetsTheDriverAndTwoExecutorsWithTheirOverhead() {
        // given: what the operator's volcano scheduler made (driver + executor requests, no overhead, one executor)
        SparkApplicationReader.Read read = read(TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO));
        PodGroupView operators = podGroup("spark-spark-pi-volcano-pg", Map.of("cpu", "2", "memory", "1Gi"), false);

        // when
        SparkApplicationPlan plan = SparkApplicationPlanner.plan(read, QUEUES, Optional.of(operators), Optional.empty());

        // then
        assertThat(plan.problems()).isEmpty();
        PodGroupSpec spec = plan.podGroup().orElseThrow();
        assertThat(spec.name()).isEqualTo("spark-spark-pi-volcano-pg");
        assertThat(spec.mirror()).isFalse();
        assertThat(spec.minResources()).isEqualTo(Map.of("cpu", "3", "memory", "2688Mi"));
        assertThat(spec.queue()).as("the operator's queue stays when the application names none").isEmpty();
        assertThat(spec.annotations()).isEqualTo(Map.of(ConfMinResources.EXPECTED_EXECUTORS, "2", ConfMinResources.GANG_EXECUTORS, "2"));
    }

    @Test
    void dynamicAllocationCountsTheInitialExecutorsAndGangsTheMinimum() {
        // given: the dynamic-allocation example (initial 2, min 1, max 5) sent to Volcano
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_DYNAMIC_ALLOCATION);
        TestingApplications.spec(application).put("batchScheduler", "volcano");

        // when
        SparkApplicationPlan plan = SparkApplicationPlanner.plan(read(application), QUEUES,
                Optional.of(podGroup("spark-spark-pi-dynamic-allocation-pg", Map.of("cpu", "2"), false)), Optional.empty());

        // then
        PodGroupSpec spec = plan.podGroup().orElseThrow();
        assertThat(spec.minResources()).isEqualTo(Map.of("cpu", "3", "memory", "2688Mi"));
        assertThat(spec.annotations()).containsEntry(ConfMinResources.EXPECTED_EXECUTORS, "2").containsEntry(ConfMinResources.GANG_EXECUTORS, "1");
    }

    @Test
    void queueAndPriorityComeFromBatchSchedulerOptions() {
        // given
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        TestingApplications.spec(application).putObject("batchSchedulerOptions").put("queue", "etl").put("priorityClassName", "batch");

        // when
        SparkApplicationPlan plan = SparkApplicationPlanner.plan(read(application), QUEUES,
                Optional.of(podGroup("spark-spark-pi-volcano-pg", Map.of(), false)), Optional.empty());

        // then
        PodGroupSpec spec = plan.podGroup().orElseThrow();
        assertThat(spec.queue()).contains("etl");
        assertThat(spec.priorityClassName()).contains("batch");
    }

    @Test
    void theUsersOwnResourcesStand() {
        // given
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        TestingApplications.spec(application).putObject("batchSchedulerOptions").putObject("resources").put("cpu", "8");

        // when
        SparkApplicationPlan plan = SparkApplicationPlanner.plan(read(application), QUEUES,
                Optional.of(podGroup("spark-spark-pi-volcano-pg", Map.of("cpu", "8"), false)), Optional.empty());

        // then
        assertThat(plan.podGroup().orElseThrow().minResources()).isEmpty();
    }

    @Test
    void aSchedulerPluginsGroupGetsAVolcanoMirrorInTheDefaultQueue() {
        // given: the operator's kube-scheduler path, with Muster named in --kube-scheduler-names
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_KUBE_SCHEDULER);
        TestingApplications.spec(application).put("batchScheduler", "muster");
        PodGroupView coscheduling = podGroup("spark-pi-kube-scheduler-pg", Map.of("cpu", "2", "memory", "1Gi"), false);

        // when
        SparkApplicationPlan plan = SparkApplicationPlanner.plan(read(application), QUEUES, Optional.empty(), Optional.of(coscheduling));

        // then
        PodGroupSpec spec = plan.podGroup().orElseThrow();
        assertThat(spec.name()).isEqualTo("spark-pi-kube-scheduler-pg");
        assertThat(spec.mirror()).isTrue();
        assertThat(spec.minMember()).isEqualTo(1);
        assertThat(spec.queue()).contains("default");
        assertThat(spec.minResources()).isEqualTo(Map.of("cpu", "3", "memory", "2688Mi"));
    }

    @Test
    void withoutABatchSchedulerThereIsNothingToComplete() {
        SparkApplicationPlan plan = SparkApplicationPlanner.plan(read(TestingApplications.example(TestingApplications.SPARK_PI)), QUEUES,
                Optional.empty(), Optional.empty());

        assertThat(plan).isEqualTo(SparkApplicationPlan.NOTHING);
    }

    @Test
    void anUnknownQueueIsAProblemNamingTheField() {
        // given
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        TestingApplications.spec(application).putObject("batchSchedulerOptions").put("queue", "no-such-queue");

        // when
        SparkApplicationPlan plan = SparkApplicationPlanner.plan(read(application), QUEUES,
                Optional.of(podGroup("spark-spark-pi-volcano-pg", Map.of(), false)), Optional.empty());

        // then
        assertThat(plan.problems()).extracting(FieldProblem::toString)
                .containsExactly("spec.batchSchedulerOptions.queue: queue 'no-such-queue' does not exist (known: default, etl)");
        assertThat(plan.podGroup()).isEmpty();
    }

    @Test
    void aMemoryThatDoesNotParseIsAProblemNamingTheSpecField() {
        // given
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        ((ObjectNode) application.path("spec").path("executor")).put("memory", "lots");

        // when
        SparkApplicationPlan plan = SparkApplicationPlanner.plan(read(application), QUEUES,
                Optional.of(podGroup("spark-spark-pi-volcano-pg", Map.of(), false)), Optional.empty());

        // then
        assertThat(plan.problems()).extracting(FieldProblem::toString)
                .containsExactly("spec.executor.memory: spark.executor.memory: 'lots' is not a size (such as 512m or 2g)");
    }

    @Test
    void aNegativeExecutorCountInSparkConfIsAProblemNamingTheConf() {
        // given
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_DYNAMIC_ALLOCATION);
        TestingApplications.spec(application).put("batchScheduler", "volcano").putObject("sparkConf")
                .put("spark.dynamicAllocation.maxExecutors", "1");
        ((ObjectNode) application.path("spec").path("dynamicAllocation")).remove("maxExecutors");

        // when
        SparkApplicationPlan plan = SparkApplicationPlanner.plan(read(application), QUEUES,
                Optional.of(podGroup("spark-spark-pi-dynamic-allocation-pg", Map.of(), false)), Optional.empty());

        // then
        assertThat(plan.problems()).extracting(FieldProblem::field).containsExactly("spec.sparkConf[spark.dynamicAllocation.maxExecutors]");
        assertThat(plan.problems().get(0).message()).contains("1 is below the initial executors 2");
    }

    @Test
    void mustersUnschedulableMessageIsThePendingReason() {
        // given
        PodGroupView waiting = new PodGroupView("spark-spark-pi-volcano-pg", JsonNodeFactory.instance.objectNode(),
                JsonNodeFactory.instance.objectNode(), Optional.of("1/1 tasks in gang unschedulable: 0/3 nodes have 1 cpu free"), false);

        // when
        SparkApplicationPlan plan = SparkApplicationPlanner.plan(read(TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO)),
                QUEUES, Optional.of(waiting), Optional.empty());

        // then
        assertThat(plan.pending()).contains("Muster: 1/1 tasks in gang unschedulable: 0/3 nodes have 1 cpu free");
    }

    @Test
    void aFinishedApplicationGetsNothing() {
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        application.with("status").with("applicationState").put("state", "COMPLETED");

        assertThat(SparkApplicationPlanner.plan(read(application), QUEUES,
                Optional.of(podGroup("spark-spark-pi-volcano-pg", Map.of(), false)), Optional.empty())).isEqualTo(SparkApplicationPlan.NOTHING);
    }

    @Test
    void gpusCountOnceForTheDriverAndOncePerExpectedExecutor() {
        // given: spark-pi-volcano (driver + 2 executors) with the operator's gpu fields
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        gpu(application, "driver", "nvidia.com/gpu", 1);
        gpu(application, "executor", "nvidia.com/gpu", 2);

        // when
        SparkApplicationPlan plan = planVolcano(application, SparkDefaults.NONE);

        // then: 1 + 2 x 2, beside the cpu and memory the application had without GPUs
        assertThat(plan.problems()).isEmpty();
        assertThat(plan.warnings()).isEmpty();
        assertThat(plan.podGroup().orElseThrow().minResources()).isEqualTo(Map.of("cpu", "3", "memory", "2688Mi", "nvidia.com/gpu", "5"));
    }

    @Test
    void aGpuFieldReplacesSparksResourceOfTheSameNameAndAddsToOthers() {
        // given: Spark's own resource confs for both pods, and the operator's executor gpu of the same resource and of another
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        TestingApplications.spec(application).putObject("sparkConf")
                .put("spark.driver.resource.gpu.amount", "2").put("spark.driver.resource.gpu.vendor", "nvidia.com")
                .put("spark.executor.resource.gpu.amount", "3").put("spark.executor.resource.gpu.vendor", "nvidia.com");
        gpu(application, "executor", "nvidia.com/gpu", 1);
        ObjectNode other = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        TestingApplications.spec(other).set("sparkConf", TestingApplications.spec(application).path("sparkConf").deepCopy());
        gpu(other, "executor", "amd.com/gpu", 1);

        // when
        Map<String, String> replaced = planVolcano(application, SparkDefaults.NONE).podGroup().orElseThrow().minResources();
        Map<String, String> added = planVolcano(other, SparkDefaults.NONE).podGroup().orElseThrow().minResources();

        // then: the webhook's limit replaces Spark's on each executor (2 + 1 x 2); another resource adds to it
        assertThat(replaced).containsEntry("nvidia.com/gpu", "4");
        assertThat(added).containsEntry("nvidia.com/gpu", "8").containsEntry("amd.com/gpu", "2");
    }

    @Test
    void underDynamicAllocationExecutorGpusCountTheInitialExecutorsAndInClientModeTheDriverHasNone() {
        // given: the dynamic-allocation example (initial 2) in client mode, where the driver is no pod of the application
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_DYNAMIC_ALLOCATION);
        TestingApplications.spec(application).put("batchScheduler", "volcano").put("mode", "client");
        gpu(application, "driver", "nvidia.com/gpu", 4);
        gpu(application, "executor", "nvidia.com/gpu", 3);

        // when
        SparkApplicationPlan plan = planVolcano(application, SparkDefaults.NONE);

        // then
        assertThat(plan.podGroup().orElseThrow().minResources()).containsEntry("nvidia.com/gpu", "6");
    }

    @Test
    void aGpuTheWebhookSkipsIsAWarningAndTheGroupIsStillCompleted() {
        // given: a quantity of 0 and an empty name, which the operator's webhook logs and skips
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        gpu(application, "driver", "", 1);
        gpu(application, "executor", "nvidia.com/gpu", 0);

        // when
        SparkApplicationPlan plan = planVolcano(application, SparkDefaults.NONE);

        // then
        assertThat(plan.problems()).isEmpty();
        assertThat(plan.warnings()).extracting(FieldProblem::toString).containsExactly(
                "spec.driver.gpu.name: empty; the operator's webhook then adds no GPU to the pods, so none is counted",
                "spec.executor.gpu.quantity: 0 is not above 0; the operator's webhook then adds no GPU to the pods, so none is counted");
        assertThat(plan.podGroup().orElseThrow().minResources()).isEqualTo(Map.of("cpu", "3", "memory", "2688Mi"));
    }

    @Test
    void aGpuQuantityOfTheWrongTypeIsAProblemNamingTheField() {
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        ((ObjectNode) application.path("spec").path("executor")).putObject("gpu").put("name", "nvidia.com/gpu").put("quantity", "two");

        SparkApplicationPlan plan = planVolcano(application, SparkDefaults.NONE);

        assertThat(plan.problems()).extracting(FieldProblem::toString).containsExactly("spec.executor.gpu.quantity: not a whole number: \"two\"");
        assertThat(plan.podGroup()).isEmpty();
    }

    @Test
    void sizingConfsOfTheSparkConfigMapAreNotCountedAndTheUserIsTold() {
        // given: a spark-defaults.conf that would make the application far larger, if Spark applied it
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        TestingApplications.spec(application).put("sparkConfigMap", "spark-conf");
        SparkDefaults defaults = SparkDefaults.parse("spark-conf", """
                spark.executor.instances 10
                spark.executor.memory=8g
                spark.executor.cores 1
                spark.ui.port 4041
                """);

        // when
        SparkApplicationPlan plan = planVolcano(application, defaults);

        // then: the same minResources as without the ConfigMap; one warning names what is not applied (not the equal cores, not the ui)
        assertThat(plan.podGroup().orElseThrow().minResources()).isEqualTo(Map.of("cpu", "3", "memory", "2688Mi"));
        assertThat(plan.warnings()).extracting(FieldProblem::field).containsExactly("spec.sparkConfigMap");
        assertThat(plan.warnings().get(0).message()).startsWith(
                "'spark-conf': spark-defaults.conf sets spark.executor.instances=10, spark.executor.memory=8g, which Spark does not apply");
    }

    @Test
    void aSparkConfigMapWithoutSizingConfsIsSilent() {
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        TestingApplications.spec(application).put("sparkConfigMap", "spark-conf");

        SparkApplicationPlan plan = planVolcano(application, SparkDefaults.parse("spark-conf", "spark.ui.port=4041\nspark.executor.memory 512m\n"));

        assertThat(plan.warnings()).isEmpty();
        assertThat(plan.podGroup()).isPresent();
    }

    @Test
    void aMissingOrUnparsableSparkConfigMapIsAWarningNamingItAndTheGroupIsStillCompleted() {
        // given
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_VOLCANO);
        TestingApplications.spec(application).put("sparkConfigMap", "no-such-map");

        // when
        SparkApplicationPlan missing = planVolcano(application, new SparkDefaults.Missing("no-such-map"));
        SparkApplicationPlan unparsable = planVolcano(application, SparkDefaults.parse("no-such-map", "spark.executor.memory \\u12zz\n"));

        // then
        assertThat(missing.warnings()).extracting(FieldProblem::toString).containsExactly("spec.sparkConfigMap: ConfigMap"
                + " 'default/no-such-map' does not exist; the operator's webhook mounts it into the driver and executor pods, which cannot"
                + " start until it does");
        assertThat(unparsable.warnings()).extracting(FieldProblem::toString).containsExactly("spec.sparkConfigMap: 'no-such-map':"
                + " spark-defaults.conf does not parse as a properties file: Malformed \\uxxxx encoding.");
        assertThat(missing.podGroup().orElseThrow().minResources()).isEqualTo(Map.of("cpu", "3", "memory", "2688Mi"));
        assertThat(unparsable.podGroup().orElseThrow().minResources()).isEqualTo(Map.of("cpu", "3", "memory", "2688Mi"));
    }

    private static SparkApplicationPlan planVolcano(ObjectNode application, SparkDefaults defaults) {
        ((ObjectNode) application.path("metadata")).put("namespace", "default");
        String group = SparkOperatorApi.volcanoPodGroupName(application.path("metadata").path("name").asText());
        return SparkApplicationPlanner.plan(read(application), QUEUES, Optional.of(podGroup(group, Map.of(), false)), Optional.empty(),
                defaults);
    }

    private static void gpu(ObjectNode application, String pod, String name, long quantity) {
        ((ObjectNode) application.path("spec").path(pod)).putObject("gpu").put("name", name).put("quantity", quantity);
    }

    private static SparkApplicationReader.Read read(JsonNode application) {
        return SparkApplicationReader.read(application);
    }

    private static PodGroupView podGroup(String name, Map<String, String> minResources, boolean mirror) {
        ObjectNode spec = JsonNodeFactory.instance.objectNode().put("minMember", 1);
        ObjectNode resources = spec.putObject("minResources");
        ImmutableMap.copyOf(minResources).forEach(resources::put);
        return new PodGroupView(name, spec, JsonNodeFactory.instance.objectNode(), Optional.empty(), mirror);
    }
}
