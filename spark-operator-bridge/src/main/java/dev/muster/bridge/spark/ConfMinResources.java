package dev.muster.bridge.spark;

import static java.util.Objects.requireNonNull;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Collections;
import java.util.Map;
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

    public ConfMinResources {
        minResources = Collections.unmodifiableMap(new TreeMap<>(minResources));
        requireNonNull(executors, "executors is null");
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
        SparkConfReader reader = new SparkConfReader(new MapConfSource(confs));
        ExecutorCount executors = ExecutorCount.read(reader);
        // in cluster mode the driver hands the executors its default factor as spark.kubernetes.memoryOverheadFactor
        ExecutorResources perExecutor = ExecutorResources.read(reader,
                nonJvm && withDriver ? ExecutorResources.NON_JVM_FACTOR : ExecutorResources.JVM_FACTOR, python);
        ApplicationResources total = new ApplicationResources();
        if (withDriver) {
            total.addExecutors(DriverResources.read(reader, nonJvm), 1);
        }
        total.addExecutors(perExecutor, executors.expected());
        return new ConfMinResources(total.toQuantities(), executors);
    }
}
