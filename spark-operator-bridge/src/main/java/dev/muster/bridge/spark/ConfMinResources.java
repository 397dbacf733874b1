package dev.muster.bridge.spark;

import static java.util.Objects.requireNonNull;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An application's {@code minResources} from its Spark confs alone, by the feature step's arithmetic
 * ({@link ExecutorCount}, {@link ExecutorResources}, and {@link DriverResources} for the driver), for
 * code outside Spark: the SparkApplication bridge computes what the spark-operator's {@code spark-submit}
 * will create before it runs. Needs no Spark class.
 *
 * @param minResources the driver (in cluster mode) + the expected executors, as Kubernetes quantities
 * @param executors how many executors the application starts with, and how many must start together
 */
public record ConfMinResources(Map<String, Quantity> minResources, ExecutorCount executors) {
    /** The PodGroup annotation with the executors the application starts with, as the feature step writes it. */
    public static final String EXPECTED_EXECUTORS = PodGroupManifest.EXPECTED_EXECUTORS;
    /** The PodGroup annotation with the executors that must be placed together, as the feature step writes it. */
    public static final String GANG_EXECUTORS = PodGroupManifest.GANG_EXECUTORS;

    /** The confs the arithmetic reads, besides those under {@link #SIZING_PREFIXES}. */
    private static final Set<String> SIZING_KEYS = Set.of(
            ExecutorResources.CORES, ExecutorResources.REQUEST_CORES, ExecutorResources.MEMORY, ExecutorResources.OVERHEAD,
            ExecutorResources.MIN_OVERHEAD, ExecutorResources.OVERHEAD_FACTOR, ExecutorResources.KUBERNETES_OVERHEAD_FACTOR,
            ExecutorResources.OFF_HEAP_ENABLED, ExecutorResources.OFF_HEAP_SIZE, ExecutorResources.PYSPARK_MEMORY,
            DriverResources.CORES, DriverResources.REQUEST_CORES, DriverResources.MEMORY, DriverResources.OVERHEAD,
            DriverResources.MIN_OVERHEAD, DriverResources.OVERHEAD_FACTOR,
            ExecutorCount.INSTANCES, ExecutorCount.DYNAMIC_ENABLED, ExecutorCount.DYNAMIC_MIN, ExecutorCount.DYNAMIC_INITIAL,
            ExecutorCount.DYNAMIC_MAX, ExecutorCount.GANG_KEY);
    private static final List<String> SIZING_PREFIXES = List.of(ExecutorResources.RESOURCE_PREFIX, DriverResources.RESOURCE_PREFIX);

    public ConfMinResources {
        minResources = Collections.unmodifiableMap(new TreeMap<>(minResources));
        requireNonNull(executors, "executors is null");
    }

    /**
     * Whether {@link #compute} reads {@code key}: a conf that changes what the driver or an executor
     * requests, or how many executors start.
     */
    public static boolean sizes(String key) {
        return SIZING_KEYS.contains(key) || SIZING_PREFIXES.stream().anyMatch(key::startsWith);
    }

    /**
     * Computes the application's {@code minResources} and executor counts.
     *
     * @param confs the confs {@code spark-submit} will run with
     * @param nonJvm a Python or R application (Spark's {@code NonJVMResource}: overhead factor 0.4)
     * @param python a Python application (PySpark memory counts)
     * @param withDriver cluster mode: the driver pod is the application's too
     * @throws ConfProblem naming the conf key, when a conf cannot be used
     */
    public static ConfMinResources compute(Map<String, String> confs, boolean nonJvm, boolean python, boolean withDriver) {
        return compute(confs, nonJvm, python, withDriver, Map.of(), Map.of());
    }

    /**
     * As {@link #compute(Map, boolean, boolean, boolean)}, with resources set on the driver's and each
     * executor's container after Spark built the pod (the spark-operator's webhook writes
     * {@code spec.driver.gpu} and {@code spec.executor.gpu} as a container limit): each replaces what the
     * confs give for the same resource name, as the webhook's limit replaces Spark's.
     *
     * @param driverLimits per driver pod, resource name to count (counted in cluster mode only)
     * @param executorLimits per executor pod, resource name to count
     */
    public static ConfMinResources compute(Map<String, String> confs, boolean nonJvm, boolean python, boolean withDriver,
            Map<String, Long> driverLimits, Map<String, Long> executorLimits) {
        requireNonNull(driverLimits, "driverLimits is null");
        requireNonNull(executorLimits, "executorLimits is null");
        SparkConfReader reader = new SparkConfReader(new MapConfSource(confs));
        ExecutorCount executors = ExecutorCount.read(reader);
        // in cluster mode the driver hands the executors its default factor as spark.kubernetes.memoryOverheadFactor
        ExecutorResources perExecutor = ExecutorResources.read(reader,
                nonJvm && withDriver ? ExecutorResources.NON_JVM_FACTOR : ExecutorResources.JVM_FACTOR, python);
        ApplicationResources total = new ApplicationResources();
        if (withDriver) {
            total.addExecutors(DriverResources.read(reader, nonJvm).withLimits(driverLimits), 1);
        }
        total.addExecutors(perExecutor.withLimits(executorLimits), executors.expected());
        return new ConfMinResources(total.toQuantities(), executors);
    }
}
