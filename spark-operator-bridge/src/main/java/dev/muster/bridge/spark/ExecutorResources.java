package dev.muster.bridge.spark;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What one executor pod of the default resource profile requests, computed from the Spark confs as
 * Spark 4.2.0's {@code BasicExecutorFeatureStep} and {@code ResourceProfile.getResourcesForClusterManager}
 * compute it, before any executor exists:
 * <ul>
 *   <li>cpu: {@code spark.kubernetes.executor.request.cores} if set, else {@code spark.executor.cores} (1);
 *   <li>memory, in MiB: {@code spark.executor.memory} (1g) + overhead + off-heap + PySpark memory, where
 *       the overhead is {@code spark.executor.memoryOverhead} if set, else
 *       {@code max((int) (factor * memory), spark.executor.minMemoryOverhead (384m))}, the factor is
 *       {@code spark.executor.memoryOverheadFactor} if set, else {@code spark.kubernetes.memoryOverheadFactor}
 *       as the executors see it (the driver passes its default on: 0.1, or 0.4 for a non-JVM application in
 *       cluster mode); off-heap counts only with {@code spark.memory.offHeap.enabled}; PySpark memory
 *       ({@code spark.executor.pyspark.memory}) only for a Python application;
 *   <li>each {@code spark.executor.resource.NAME.amount}, as the resource {@code VENDOR/NAME}.
 * </ul>
 */
public record ExecutorResources(BigDecimal cpu, long memoryMib, Map<String, Long> extended) {
    static final String CORES = "spark.executor.cores";
    static final String REQUEST_CORES = "spark.kubernetes.executor.request.cores";
    static final String MEMORY = "spark.executor.memory";
    static final String OVERHEAD = "spark.executor.memoryOverhead";
    static final String MIN_OVERHEAD = "spark.executor.minMemoryOverhead";
    static final String OVERHEAD_FACTOR = "spark.executor.memoryOverheadFactor";
    static final String KUBERNETES_OVERHEAD_FACTOR = "spark.kubernetes.memoryOverheadFactor";
    static final String OFF_HEAP_ENABLED = "spark.memory.offHeap.enabled";
    static final String OFF_HEAP_SIZE = "spark.memory.offHeap.size";
    static final String PYSPARK_MEMORY = "spark.executor.pyspark.memory";
    static final String RESOURCE_PREFIX = "spark.executor.resource.";
    /** Spark's {@code spark.kubernetes.memoryOverheadFactor} default and its non-JVM default. */
    static final double JVM_FACTOR = 0.1;
    static final double NON_JVM_FACTOR = 0.4;

    public ExecutorResources {
        // sorted and unmodifiable; not Guava's ImmutableMap, which Spark does not ship under its own name
        extended = Collections.unmodifiableMap(new TreeMap<>(extended));
    }

    /** This pod with each of {@code limits} replacing the resource of the same name (a limit set on its container afterwards). */
    ExecutorResources withLimits(Map<String, Long> limits) {
        if (limits.isEmpty()) {
            return this;
        }
        Map<String, Long> replaced = new TreeMap<>(extended);
        replaced.putAll(limits);
        return new ExecutorResources(cpu, memoryMib, replaced);
    }

    /**
     * @param kubernetesFactor the {@code spark.kubernetes.memoryOverheadFactor} the executors will see when
     *     the conf does not set it
     * @param python whether the application is a Python one
     */
    static ExecutorResources read(SparkConfReader conf, double kubernetesFactor, boolean python) {
        BigDecimal cpu = conf.string(REQUEST_CORES)
                .map(value -> Quantities.cpu(REQUEST_CORES, value))
                .orElseGet(() -> BigDecimal.valueOf(positive(conf, CORES).orElse(1)));
        long memory = conf.sizeInMib(MEMORY).orElse(1024L);
        double factor = conf.nonNegativeDouble(OVERHEAD_FACTOR)
                .or(() -> conf.nonNegativeDouble(KUBERNETES_OVERHEAD_FACTOR))
                .orElse(kubernetesFactor);
        long minOverhead = conf.sizeInMib(MIN_OVERHEAD).orElse(384L);
        // Spark truncates the product to an int before taking the larger of the two
        long overhead = conf.sizeInMib(OVERHEAD).orElseGet(() -> Math.max((long) (int) (factor * memory), minOverhead));
        long offHeap = 0;
        if (conf.bool(OFF_HEAP_ENABLED, false)) {
            offHeap = conf.sizeInMib(OFF_HEAP_SIZE).orElse(0L);
            if (offHeap <= 0) {
                throw new ConfProblem(OFF_HEAP_SIZE, "must be more than 0 when " + OFF_HEAP_ENABLED + " is true");
            }
        }
        long pyspark = python ? conf.sizeInMib(PYSPARK_MEMORY).orElse(0L) : 0L;
        return new ExecutorResources(cpu, memory + overhead + offHeap + pyspark, customResources(conf, RESOURCE_PREFIX));
    }

    private static Optional<Integer> positive(SparkConfReader conf, String key) {
        Optional<Integer> value = conf.nonNegativeInt(key);
        if (value.isPresent() && value.get() == 0) {
            throw new ConfProblem(key, "0 cores; an executor needs at least one");
        }
        return value;
    }

    /** Each {@code PREFIX.NAME.amount} conf (PREFIX such as {@code spark.executor.resource.}), as the resource {@code VENDOR/NAME}. */
    static Map<String, Long> customResources(SparkConfReader conf, String prefix) {
        Map<String, Long> resources = new TreeMap<>();
        for (Map.Entry<String, String> setting : conf.withPrefix(prefix).entrySet()) {
            String suffix = setting.getKey();
            int dot = suffix.indexOf('.');
            if (dot < 0 || !suffix.substring(dot + 1).equals("amount")) {
                continue;
            }
            String name = suffix.substring(0, dot);
            String amountKey = prefix + name + ".amount";
            String vendorKey = prefix + name + ".vendor";
            long amount;
            try {
                amount = Long.parseLong(setting.getValue().trim());
            } catch (NumberFormatException e) {
                throw new ConfProblem(amountKey, "'" + setting.getValue() + "' is not a whole number", e);
            }
            if (amount < 0) {
                throw new ConfProblem(amountKey, amount + " is negative");
            }
            String vendor = conf.string(vendorKey).filter(value -> !value.isEmpty()).orElseThrow(() ->
                    new ConfProblem(vendorKey, "missing; Spark on Kubernetes names resource '" + name + "' VENDOR/" + name));
            resources.put(vendor + "/" + name, amount);
        }
        return resources;
    }
}
