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
