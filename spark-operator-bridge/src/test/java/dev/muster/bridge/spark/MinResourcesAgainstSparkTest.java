package dev.muster.bridge.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.k8s.KubernetesDriverConf;
import org.apache.spark.deploy.k8s.SparkPod;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The PodGroup's {@code minResources} equals what Spark 4.2.0 itself will create: the driver pod its
 * {@code BasicDriverFeatureStep} builds plus, for each expected executor, the executor pod its
 * {@code BasicExecutorFeatureStep} builds from the conf the driver runs with. Spark's own code is the
 * oracle, so the formula (overhead factor 0.1, the 384 MiB minimum, the Kubernetes and non-JVM
 * factors, PySpark and off-heap memory, custom resources) is checked, not restated.
 */
class MinResourcesAgainstSparkTest {
    static Stream<Arguments> confs() {
        return Stream.of(
                Arguments.of("Spark's defaults: 2 executors of 1 core, 1g + the 384m minimum overhead", false, Map.of(), 2),
                Arguments.of("4g executors: 0.1 of 4096 MiB truncates to 409, above the minimum", false,
                        Map.of("spark.executor.memory", "4g", "spark.executor.instances", "3"), 3),
                Arguments.of("spark.executor.memoryOverheadFactor 0.25", false,
                        Map.of("spark.executor.memory", "6g", "spark.executor.memoryOverheadFactor", "0.25"), 2),
                Arguments.of("spark.kubernetes.memoryOverheadFactor 0.3 for driver and executors", false,
                        Map.of("spark.executor.memory", "8g", "spark.driver.memory", "5g", "spark.kubernetes.memoryOverheadFactor", "0.3"), 2),
                Arguments.of("the executor factor wins over spark.kubernetes.memoryOverheadFactor", false,
                        Map.of("spark.executor.memory", "8g", "spark.kubernetes.memoryOverheadFactor", "0.3",
                                "spark.executor.memoryOverheadFactor", "0.15"), 2),
                Arguments.of("an explicit spark.executor.memoryOverhead of 1g", false,
                        Map.of("spark.executor.memoryOverhead", "1g", "spark.executor.instances", "4"), 4),
                Arguments.of("spark.executor.minMemoryOverhead 1g raises the floor", false,
                        Map.of("spark.executor.minMemoryOverhead", "1g", "spark.driver.minMemoryOverhead", "600m"), 2),
                Arguments.of("off-heap memory counts when enabled", false,
                        Map.of("spark.memory.offHeap.enabled", "true", "spark.memory.offHeap.size", "512m"), 2),
                Arguments.of("off-heap size does not count when disabled", false, Map.of("spark.memory.offHeap.size", "512m"), 2),
                Arguments.of("a Python application: non-JVM factor 0.4 and PySpark memory", true,
                        Map.of("spark.executor.memory", "2g", "spark.executor.pyspark.memory", "512m"), 2),
                Arguments.of("PySpark memory of a JVM application does not count", false,
                        Map.of("spark.executor.pyspark.memory", "512m"), 2),
                Arguments.of("GPUs: spark.executor.resource.gpu.amount 2 of vendor nvidia.com", false,
                        Map.of("spark.executor.resource.gpu.amount", "2", "spark.executor.resource.gpu.vendor", "nvidia.com",
                                "spark.executor.instances", "3"), 3),
                Arguments.of("driver GPUs and cores", false,
                        Map.of("spark.driver.resource.gpu.amount", "1", "spark.driver.resource.gpu.vendor", "nvidia.com",
                                "spark.driver.cores", "2"), 2),
                Arguments.of("spark.kubernetes.executor.request.cores 500m and driver request 250m", false,
                        Map.of("spark.kubernetes.executor.request.cores", "500m", "spark.kubernetes.driver.request.cores", "250m",
                                "spark.executor.instances", "3"), 3),
                Arguments.of("spark.executor.cores 4", false, Map.of("spark.executor.cores", "4", "spark.executor.instances", "5"), 5),
                Arguments.of("dynamic allocation starts with the largest of min 2, initial 3 and instances", false,
                        Map.of("spark.dynamicAllocation.enabled", "true", "spark.dynamicAllocation.minExecutors", "2",
                                "spark.dynamicAllocation.initialExecutors", "3", "spark.dynamicAllocation.maxExecutors", "10"), 3),
                Arguments.of("dynamic allocation with no minimum starts with no executors", false,
                        Map.of("spark.dynamicAllocation.enabled", "true"), 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("confs")
    void minResourcesAreTheDriverAndExpectedExecutorsSparkBuilds(String name, boolean python, Map<String, String> settings,
            int expectedExecutors) {
        // given
        SparkConf conf = SparkPods.conf(settings);
        KubernetesDriverConf driverConf = SparkPods.driverConf(conf, python);
        SparkPod sparkDriver = SparkPods.driverPod(driverConf);
        Container executor = SparkPods.executorContainer(SparkPods.driverRuntimeConf(conf, python));
        Map<String, BigDecimal> oracle = new TreeMap<>();
        SparkPods.effectiveRequests(sparkDriver.container()).forEach((resource, quantity) -> oracle.merge(resource,
                Quantity.getAmountInBytes(quantity), BigDecimal::add));
        SparkPods.effectiveRequests(executor).forEach((resource, quantity) -> oracle.merge(resource,
                Quantity.getAmountInBytes(quantity).multiply(BigDecimal.valueOf(expectedExecutors)), BigDecimal::add));
        oracle.values().removeIf(amount -> amount.signum() == 0);

        // when
        MusterFeatureStep step = new MusterFeatureStep((sparkConf, namespace) -> {
            throw new AssertionError("no API call without a queue");
        });
        step.init(driverConf);
        step.configurePod(sparkDriver);
        List<HasMetadata> resources = CollectionConverters.asJava(step.getAdditionalPreKubernetesResources());

        // then
        assertThat(resources).hasSize(1);
        GenericKubernetesResource podGroup = (GenericKubernetesResource) resources.get(0);
        Map<?, ?> spec = (Map<?, ?>) podGroup.getAdditionalProperties().get("spec");
        Map<String, BigDecimal> minResources = new TreeMap<>();
        ((Map<?, ?>) spec.get("minResources")).forEach((resource, quantity) ->
                minResources.put((String) resource, Quantity.getAmountInBytes(new Quantity((String) quantity))));
        assertThat(minResources).as("minResources against Spark's driver + %s x executor pods", expectedExecutors)
                .isEqualTo(oracle);
        assertThat(spec.get("minMember")).isEqualTo(1);
        assertThat(podGroup.getMetadata().getAnnotations())
                .containsEntry(PodGroupManifest.EXPECTED_EXECUTORS, Integer.toString(expectedExecutors));
    }
}
