package dev.muster.bridge.spark;

import java.math.BigDecimal;

/**
 * What the driver pod of a cluster-mode application requests, computed from the Spark confs alone as
 * Spark 4.2.0's {@code BasicDriverFeatureStep} computes it, for callers that cannot run Spark's steps
 * (the SparkApplication bridge, before {@code spark-submit} runs). The feature step itself reads the
 * driver pod Spark built instead.
 * <ul>
 *   <li>cpu: {@code spark.kubernetes.driver.request.cores} if set, else {@code spark.driver.cores} (1);
 *   <li>memory, in MiB: {@code spark.driver.memory} (1g) + {@code spark.driver.memoryOverhead} if set, else
 *       {@code max((int) (factor * memory), spark.driver.minMemoryOverhead (384m))}, the factor being
 *       {@code spark.driver.memoryOverheadFactor}, else {@code spark.kubernetes.memoryOverheadFactor}, else
 *       0.1 (0.4 for a Python or R application);
 *   <li>each {@code spark.driver.resource.NAME.amount}, as the resource {@code VENDOR/NAME}.
 * </ul>
 */
final class DriverResources {
    static final String CORES = "spark.driver.cores";
    static final String REQUEST_CORES = "spark.kubernetes.driver.request.cores";
    static final String MEMORY = "spark.driver.memory";
    static final String OVERHEAD = "spark.driver.memoryOverhead";
    static final String MIN_OVERHEAD = "spark.driver.minMemoryOverhead";
    static final String OVERHEAD_FACTOR = "spark.driver.memoryOverheadFactor";
    static final String RESOURCE_PREFIX = "spark.driver.resource.";

    private DriverResources() {}

    /** The driver pod's requests, in the shape of one executor's. */
    static ExecutorResources read(SparkConfReader conf, boolean nonJvm) {
        BigDecimal cpu = conf.string(REQUEST_CORES)
                .map(value -> Quantities.cpu(REQUEST_CORES, value))
                .orElseGet(() -> {
                    int cores = conf.nonNegativeInt(CORES).orElse(1);
                    if (cores == 0) {
                        throw new ConfProblem(CORES, "0 cores; a driver needs at least one");
                    }
                    return BigDecimal.valueOf(cores);
                });
        long memory = conf.sizeInMib(MEMORY).orElse(1024L);
        double factor = conf.nonNegativeDouble(OVERHEAD_FACTOR)
                .or(() -> conf.nonNegativeDouble(ExecutorResources.KUBERNETES_OVERHEAD_FACTOR))
                .orElse(nonJvm ? ExecutorResources.NON_JVM_FACTOR : ExecutorResources.JVM_FACTOR);
        long minOverhead = conf.sizeInMib(MIN_OVERHEAD).orElse(384L);
        // Spark truncates the product to an int before taking the larger of the two
        long overhead = conf.sizeInMib(OVERHEAD).orElseGet(() -> Math.max((long) (int) (factor * memory), minOverhead));
        return new ExecutorResources(cpu, memory + overhead, ExecutorResources.customResources(conf, RESOURCE_PREFIX));
    }
}
