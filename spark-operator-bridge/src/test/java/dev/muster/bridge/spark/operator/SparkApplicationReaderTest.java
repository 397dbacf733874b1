package dev.muster.bridge.spark.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The confs the operator passes to {@code spark-submit}, read from its examples as its {@code buildSparkSubmitArgs} writes them. */
class SparkApplicationReaderTest {
    @Test
    void sparkPiBecomesTheConfsTheOperatorWrites() {
        SparkApplicationReader.Read read = SparkApplicationReader.read(TestingApplications.example(TestingApplications.SPARK_PI, "default",
                "uid-1"));

        assertThat(read.problems()).isEmpty();
        SparkApplication application = read.application();
        assertThat(application.confs()).isEqualTo(Map.of("spark.driver.cores", "1", "spark.driver.memory", "512m",
                "spark.executor.instances", "1", "spark.executor.cores", "1", "spark.executor.memory", "512m"));
        assertThat(application.batchScheduler()).isEmpty();
        assertThat(application.clusterMode()).isTrue();
        assertThat(application.nonJvm()).isFalse();
        assertThat(application.displayName()).isEqualTo("default/spark-pi");
        assertThat(application.fieldOf("spark.executor.memory")).isEqualTo("spec.executor.memory");
    }

    @Test
    void specFieldsWinOverSparkConfAndDynamicAllocationIsWritten() {
        // given: a sparkConf that the executor's memory field and dynamicAllocation overwrite, as on spark-submit's command line
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI_DYNAMIC_ALLOCATION);
        TestingApplications.spec(application).put("memoryOverheadFactor", "0.2").putObject("sparkConf")
                .put("spark.executor.memory", "4g").put("spark.kubernetes.memoryOverheadFactor", "0.3");

        // when
        SparkApplication read = SparkApplicationReader.read(application).application();

        // then
        assertThat(read.confs()).containsEntry("spark.executor.memory", "512m")
                .containsEntry("spark.kubernetes.memoryOverheadFactor", "0.3")
                .containsEntry("spark.dynamicAllocation.enabled", "true")
                .containsEntry("spark.dynamicAllocation.initialExecutors", "2")
                .containsEntry("spark.dynamicAllocation.minExecutors", "1")
                .containsEntry("spark.dynamicAllocation.maxExecutors", "5");
        assertThat(read.fieldOf("spark.kubernetes.memoryOverheadFactor")).isEqualTo("spec.sparkConf[spark.kubernetes.memoryOverheadFactor]");
        assertThat(read.fieldOf("spark.dynamicAllocation.minExecutors")).isEqualTo("spec.dynamicAllocation.minExecutors");
    }

    @Test
    void aFieldOfTheWrongTypeIsAProblemAndTheOthersAreStillRead() {
        // given
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI);
        ((ObjectNode) application.path("spec").path("executor")).put("instances", "two");

        // when
        SparkApplicationReader.Read read = SparkApplicationReader.read(application);

        // then
        assertThat(read.problems()).extracting(FieldProblem::toString).containsExactly("spec.executor.instances: not a whole number: \"two\"");
        assertThat(read.application().confs()).containsEntry("spark.executor.memory", "512m").doesNotContainKey("spark.executor.instances");
    }

    @Test
    void aPythonApplicationIsNonJvm() {
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI);
        TestingApplications.spec(application).put("type", "Python").put("mode", "client");

        SparkApplication read = SparkApplicationReader.read(application).application();

        assertThat(read.python()).isTrue();
        assertThat(read.nonJvm()).isTrue();
        assertThat(read.clusterMode()).isFalse();
    }

    @Test
    void gpuFieldsAreTheLimitsTheWebhookSetsAndSparkConfigMapIsRead() {
        // given
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI);
        ((ObjectNode) application.path("spec").path("driver")).putObject("gpu").put("name", "nvidia.com/gpu").put("quantity", 1);
        ((ObjectNode) application.path("spec").path("executor")).putObject("gpu").put("name", "amd.com/gpu").put("quantity", 2);
        TestingApplications.spec(application).put("sparkConfigMap", "spark-conf");

        // when
        SparkApplicationReader.Read read = SparkApplicationReader.read(application);

        // then: not confs, which spark-submit never sees
        assertThat(read.problems()).isEmpty();
        assertThat(read.warnings()).isEmpty();
        assertThat(read.application().driverLimits()).isEqualTo(Map.of("nvidia.com/gpu", 1L));
        assertThat(read.application().executorLimits()).isEqualTo(Map.of("amd.com/gpu", 2L));
        assertThat(read.application().confs()).doesNotContainKeys("spark.driver.resource.gpu.amount", "spark.executor.resource.gpu.amount");
        assertThat(read.application().sparkConfigMap()).contains("spark-conf");
    }

    @Test
    void aGpuNameThatIsNoExtendedResourceIsAWarningNamingTheFieldAndValue() {
        ObjectNode application = TestingApplications.example(TestingApplications.SPARK_PI);
        ((ObjectNode) application.path("spec").path("executor")).putObject("gpu").put("name", "gpu").put("quantity", 1);

        SparkApplicationReader.Read read = SparkApplicationReader.read(application);

        assertThat(read.problems()).isEmpty();
        assertThat(read.warnings()).extracting(FieldProblem::toString).containsExactly(
                "spec.executor.gpu.name: 'gpu' is not an extended resource name such as nvidia.com/gpu; it is not counted");
        assertThat(read.application().executorLimits()).isEmpty();
    }

    @Test
    void aRunOfAScheduledSparkApplicationNamesItsScheduledApplicationAndAPlainOneNone() {
        // given: a run as the operator's ScheduledSparkApplication controller makes it, owned (not controlled) by it
        ObjectNode run = TestingApplications.example(TestingApplications.SPARK_PI, "default", "uid-run");
        ((ObjectNode) run.path("metadata")).putArray("ownerReferences").addObject().put("apiVersion", SparkOperatorApi.API_VERSION)
                .put("kind", SparkOperatorApi.SCHEDULED_KIND).put("name", "nightly-pi").put("uid", "uid-nightly").put("blockOwnerDeletion", true);

        // when
        SparkApplication scheduled = SparkApplicationReader.read(run).application();
        SparkApplication plain = SparkApplicationReader.read(TestingApplications.example(TestingApplications.SPARK_PI, "default", "uid-1"))
                .application();

        // then
        assertThat(scheduled.scheduledBy()).contains(new SparkApplication.ScheduledBy("nightly-pi", "uid-nightly"));
        assertThat(plain.scheduledBy()).isEmpty();
    }
}
