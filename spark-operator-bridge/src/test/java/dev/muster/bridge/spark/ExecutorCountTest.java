package dev.muster.bridge.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ExecutorCountTest {
    static Stream<Arguments> confs() {
        return Stream.of(
                Arguments.of("no conf: Spark's default of 2 executors, all together", Map.of(), 2, 2),
                Arguments.of("spark.executor.instances 6", Map.of("spark.executor.instances", "6"), 6, 6),
                Arguments.of("spark.executor.instances 0", Map.of("spark.executor.instances", "0"), 0, 0),
                Arguments.of("a gang of 4 of 6", Map.of("spark.executor.instances", "6", ExecutorCount.GANG_KEY, "4"), 6, 4),
                Arguments.of("dynamic allocation: no minimum, no executors", Map.of("spark.dynamicAllocation.enabled", "true"), 0, 0),
                Arguments.of("dynamic allocation: min 2, initial defaults to min",
                        Map.of("spark.dynamicAllocation.enabled", "true", "spark.dynamicAllocation.minExecutors", "2"), 2, 2),
                Arguments.of("dynamic allocation: initial 5 above min 2; the gang is the minimum",
                        Map.of("spark.dynamicAllocation.enabled", "true", "spark.dynamicAllocation.minExecutors", "2",
                                "spark.dynamicAllocation.initialExecutors", "5"), 5, 2),
                Arguments.of("dynamic allocation: instances 7 above initial 3 (Spark takes the largest)",
                        Map.of("spark.dynamicAllocation.enabled", "true", "spark.dynamicAllocation.initialExecutors", "3",
                                "spark.executor.instances", "7"), 7, 0),
                Arguments.of("dynamic allocation disabled: min and initial are ignored",
                        Map.of("spark.dynamicAllocation.enabled", "false", "spark.dynamicAllocation.minExecutors", "9"), 2, 2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("confs")
    void expectedAndGangExecutors(String name, Map<String, String> settings, int expected, int gang) {
        ExecutorCount count = ExecutorCount.read(new SparkConfReader(new SparkConfSource(SparkPods.conf(settings))));

        assertThat(count).isEqualTo(new ExecutorCount(expected, gang));
    }
}
