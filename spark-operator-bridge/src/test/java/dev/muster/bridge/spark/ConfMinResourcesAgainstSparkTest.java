package dev.muster.bridge.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ConfMinResources}, which computes {@code minResources} from a plain map of confs (no Spark
 * class), equals what Spark 4.2.0 itself builds from the same confs: its driver pod plus its expected
 * executor pods. Its size parser reads sizes as Spark's {@code getSizeAsMb} does.
 */
class ConfMinResourcesAgainstSparkTest {
    static Stream<Arguments> confs() {
        return Stream.of(
                Arguments.of("Spark's defaults", false, Map.of(), 2),
                Arguments.of("spark-pi: 1 core 512m driver, 1 executor of 512m", false,
                        Map.of("spark.driver.cores", "1", "spark.driver.memory", "512m", "spark.executor.instances", "1",
                                "spark.executor.cores", "1", "spark.executor.memory", "512m"), 1),
                Arguments.of("4g driver and executors: the 0.1 factor above the minimum", false,
                        Map.of("spark.driver.memory", "4g", "spark.executor.memory", "4096", "spark.executor.instances", "3"), 3),
                Arguments.of("spark.driver.memoryOverheadFactor 0.25", false,
                        Map.of("spark.driver.memory", "8g", "spark.driver.memoryOverheadFactor", "0.25"), 2),
                Arguments.of("spark.kubernetes.memoryOverheadFactor 0.3, as the operator's memoryOverheadFactor writes it", false,
                        Map.of("spark.executor.memory", "8g", "spark.driver.memory", "5g", "spark.kubernetes.memoryOverheadFactor", "0.3"), 2),
                Arguments.of("explicit overheads as the operator's memoryOverhead fields write them", false,
                        Map.of("spark.driver.memoryOverhead", "1g", "spark.executor.memoryOverhead", "700m", "spark.executor.instances", "4"), 4),
                Arguments.of("minimum overheads raised", false,
                        Map.of("spark.executor.minMemoryOverhead", "1g", "spark.driver.minMemoryOverhead", "600m"), 2),
                Arguments.of("a Python application: 0.4 for driver and executors, and PySpark memory", true,
                        Map.of("spark.driver.memory", "2g", "spark.executor.memory", "2g", "spark.executor.pyspark.memory", "512m"), 2),
                Arguments.of("core requests as the operator's coreRequest fields write them", false,
                        Map.of("spark.kubernetes.executor.request.cores", "500m", "spark.kubernetes.driver.request.cores", "250m",
                                "spark.executor.instances", "3"), 3),
                Arguments.of("driver and executor GPUs", false,
                        Map.of("spark.driver.resource.gpu.amount", "1", "spark.driver.resource.gpu.vendor", "nvidia.com",
                                "spark.executor.resource.gpu.amount", "2", "spark.executor.resource.gpu.vendor", "nvidia.com"), 2),
                Arguments.of("off-heap memory", false,
                        Map.of("spark.memory.offHeap.enabled", "true", "spark.memory.offHeap.size", "1536m"), 2),
                Arguments.of("dynamic allocation of the operator's example: initial 2, min 1, max 5", false,
                        Map.of("spark.dynamicAllocation.enabled", "true", "spark.dynamicAllocation.initialExecutors", "2",
                                "spark.dynamicAllocation.minExecutors", "1", "spark.dynamicAllocation.maxExecutors", "5",
                                "spark.executor.instances", "1", "spark.executor.memory", "512m"), 2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("confs")
    void minResourcesFromAMapAreWhatSparkBuilds(String name, boolean python, Map<String, String> settings, int expectedExecutors) {
        // given: Spark's own pods for these confs
        SparkConf conf = SparkPods.conf(settings);
        Map<String, BigDecimal> oracle = new TreeMap<>();
        SparkPods.effectiveRequests(SparkPods.driverPod(SparkPods.driverConf(conf, python)).container())
                .forEach((resource, quantity) -> oracle.merge(resource, Quantity.getAmountInBytes(quantity), BigDecimal::add));
        SparkPods.effectiveRequests(SparkPods.executorContainer(SparkPods.driverRuntimeConf(conf, python)))
                .forEach((resource, quantity) -> oracle.merge(resource,
                        Quantity.getAmountInBytes(quantity).multiply(BigDecimal.valueOf(expectedExecutors)), BigDecimal::add));
        oracle.values().removeIf(amount -> amount.signum() == 0);

        // when
        ConfMinResources computed = ConfMinResources.compute(settings, python, python, true);

        // then
        Map<String, BigDecimal> amounts = new TreeMap<>();
        computed.minResources().forEach((resource, quantity) -> amounts.put(resource, Quantity.getAmountInBytes(quantity)));
        assertThat(amounts).isEqualTo(oracle);
        assertThat(computed.executors().expected()).isEqualTo(expectedExecutors);
    }

    @ParameterizedTest(name = "size [{0}]")
    @ValueSource(strings = {"512m", "1g", "1G", " 2gb ", "1536", "1048576k", "3000000k", "1t", "1073741824b", "1500kb", "0"})
    void sizesParseAsSparkParsesThem(String size) {
        SparkConf conf = new SparkConf(false).set("spark.executor.memory", size);

        assertThat(MapConfSource.mebibytes(size)).isEqualTo(conf.getSizeAsMb("spark.executor.memory"));
    }

    @ParameterizedTest(name = "size [{0}]")
    @ValueSource(strings = {"1.5g", "lots", "12x", "-1g", ""})
    void whatSparkRejectsIsRejected(String size) {
        SparkConf conf = new SparkConf(false).set("spark.executor.memory", size);
        assertThatThrownBy(() -> conf.getSizeAsMb("spark.executor.memory")).isInstanceOf(NumberFormatException.class);

        assertThatThrownBy(() -> MapConfSource.mebibytes(size)).isInstanceOf(NumberFormatException.class);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"spark.executor.memory", "spark.driver.memory"})
    void aSizeThatDoesNotParseNamesItsKey(String key) {
        assertThatThrownBy(() -> ConfMinResources.compute(Map.of(key, "lots"), false, false, true))
                .isInstanceOf(ConfProblem.class)
                .hasMessage(key + ": 'lots' is not a size (such as 512m or 2g)");
    }
}
