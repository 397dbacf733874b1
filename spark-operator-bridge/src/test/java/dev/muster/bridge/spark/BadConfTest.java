package dev.muster.bridge.spark;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A conf the step cannot use fails {@code init}, which Spark calls before it creates anything, with a
 * {@link ConfProblem} naming the key and the value.
 */
class BadConfTest {
    @TempDir
    static Path files;

    static Stream<Arguments> confs() {
        return Stream.of(
                Arguments.of("a negative executor count", Map.of("spark.executor.instances", "-1"),
                        "spark.executor.instances", "-1 is negative"),
                Arguments.of("an executor count that is not a number", Map.of("spark.executor.instances", "many"),
                        "spark.executor.instances", "'many' is not a whole number"),
                Arguments.of("a negative dynamic minimum", Map.of("spark.dynamicAllocation.enabled", "true",
                        "spark.dynamicAllocation.minExecutors", "-2"), "spark.dynamicAllocation.minExecutors", "-2 is negative"),
                Arguments.of("initial executors above the maximum", Map.of("spark.dynamicAllocation.enabled", "true",
                        "spark.dynamicAllocation.initialExecutors", "8", "spark.dynamicAllocation.maxExecutors", "4"),
                        "spark.dynamicAllocation.maxExecutors", "4 is below the initial executors 8"),
                Arguments.of("a gang larger than the executors", Map.of("spark.executor.instances", "3", ExecutorCount.GANG_KEY, "5"),
                        ExecutorCount.GANG_KEY, "5 exceeds the 3 executors"),
                Arguments.of("dynamic allocation enabled 'yes'", Map.of("spark.dynamicAllocation.enabled", "yes"),
                        "spark.dynamicAllocation.enabled", "'yes' is neither true nor false"),
                Arguments.of("a queue that is no Kubernetes name", Map.of(MusterConf.QUEUE, "Team A"),
                        MusterConf.QUEUE, "'Team A' is not a Kubernetes object name"),
                Arguments.of("a GPU without a vendor", Map.of("spark.executor.resource.gpu.amount", "1"),
                        "spark.executor.resource.gpu.vendor", "missing"),
                Arguments.of("a GPU amount that is not a number", Map.of("spark.executor.resource.gpu.amount", "one",
                        "spark.executor.resource.gpu.vendor", "nvidia.com"), "spark.executor.resource.gpu.amount", "'one'"),
                Arguments.of("off-heap enabled without a size", Map.of("spark.memory.offHeap.enabled", "true"),
                        "spark.memory.offHeap.size", "must be more than 0"),
                Arguments.of("executor memory that is no size", Map.of("spark.executor.memory", "lots"),
                        "spark.executor.memory", "'lots' is not a size"),
                Arguments.of("a negative overhead factor", Map.of("spark.executor.memoryOverheadFactor", "-0.5"),
                        "spark.executor.memoryOverheadFactor", "-0.5 is negative"),
                Arguments.of("request cores that are no quantity", Map.of("spark.kubernetes.executor.request.cores", "half"),
                        "spark.kubernetes.executor.request.cores", "'half' is not a cpu quantity"),
                Arguments.of("a template file that does not exist", Map.of(MusterConf.VOLCANO_TEMPLATE, "/nonexistent/podgroup.yaml"),
                        MusterConf.VOLCANO_TEMPLATE, "cannot read '/nonexistent/podgroup.yaml'"),
                Arguments.of("a template that does not parse", Map.of(MusterConf.TEMPLATE, file("broken.yaml", "spec: [minMember: {")),
                        MusterConf.TEMPLATE, "is not a PodGroup in YAML or JSON"),
                Arguments.of("a template of another kind", Map.of(MusterConf.TEMPLATE,
                        file("deployment.yaml", "apiVersion: apps/v1\nkind: Deployment\nspec: {}\n")),
                        MusterConf.TEMPLATE, "holds a Deployment, not a PodGroup"),
                Arguments.of("a template minMember of 3, which cluster mode can never meet", Map.of(MusterConf.VOLCANO_TEMPLATE,
                        file("min3.yaml", "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nspec:\n  minMember: 3\n")),
                        MusterConf.VOLCANO_TEMPLATE, "spec.minMember 3 can never be met in cluster mode"),
                Arguments.of("a template minMember that is no number", Map.of(MusterConf.TEMPLATE,
                        file("minx.yaml", "kind: PodGroup\nspec:\n  minMember: three\n")),
                        MusterConf.TEMPLATE, "spec.minMember 'three' is not a whole number"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("confs")
    void badConfFailsInitNamingTheKey(String name, Map<String, String> settings, String key, String message) {
        MusterFeatureStep step = new MusterFeatureStep((conf, namespace) -> {
            throw new AssertionError("no API call for a bad conf");
        });

        assertThatThrownBy(() -> step.init(SparkPods.driverConf(SparkPods.conf(new HashMap<>(settings)), false)))
                .isInstanceOf(ConfProblem.class)
                .hasMessageStartingWith(key + ": ")
                .hasMessageContaining(message)
                .satisfies(problem -> org.assertj.core.api.Assertions.assertThat(((ConfProblem) problem).key()).isEqualTo(key));
    }

    private static String file(String name, String text) {
        try {
            Path dir = files == null ? Files.createTempDirectory("muster-spark") : files;
            return Files.writeString(dir.resolve(name), text).toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
