package dev.muster.sim.spark;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.Resources;

/**
 * One Spark application of the workload, in static allocation ({@code spark.executor.instances}) or
 * with dynamic allocation ({@code spark.dynamicAllocation.*}).
 *
 * @param arrivalMillis when {@code spark-submit} creates the driver pod, after the workload's start
 * @param executors the executors the application starts with: {@code spark.executor.instances} in static
 *     allocation, {@code initialExecutors} with dynamic allocation (what Muster's Spark step writes as
 *     {@code muster.dev/spark-expected-executors} and counts in {@code minResources})
 * @param maxExecutors {@code spark.dynamicAllocation.maxExecutors}, up to which Spark asks for more
 *     executors while tasks are backlogged; {@code executors} in static allocation
 * @param gangExecutors what Muster's Spark step writes as {@code muster.dev/spark-gang-executors}: how many
 *     executors must start together (all of them by default in static allocation, {@code minExecutors}
 *     with dynamic allocation)
 * @param startupMillis from the driver's binding until the SparkContext asks for executors (JVM, context)
 * @param stageMillis the query's stages, each as long as it takes with {@code maxExecutors} running
 */
public record SparkAppSpec(String name, long arrivalMillis, Resources driver, Resources executor, int executors, int maxExecutors,
        int gangExecutors, long startupMillis, ImmutableList<Long> stageMillis) {
    public SparkAppSpec {
        requireNonNull(name, "name is null");
        checkArgument(arrivalMillis >= 0, "application %s: arrival is negative: %s", name, arrivalMillis);
        requireNonNull(driver, "driver is null");
        requireNonNull(executor, "executor is null");
        checkArgument(executors > 0, "application %s: executors must be positive: %s", name, executors);
        checkArgument(maxExecutors >= executors, "application %s: max executors %s below the initial %s", name, maxExecutors, executors);
        checkArgument(gangExecutors >= 0 && gangExecutors <= executors, "application %s: gang of %s executors of %s", name, gangExecutors,
                executors);
        checkArgument(startupMillis >= 0, "application %s: start-up is negative: %s", name, startupMillis);
        stageMillis = ImmutableList.copyOf(stageMillis);
        checkArgument(!stageMillis.isEmpty(), "application %s has no stage", name);
    }

    /** The work of the query in executor-milliseconds: each stage's duration times the executors it was measured with. */
    public long workExecutorMillis() {
        return stageMillis.stream().mapToLong(Long::longValue).sum() * maxExecutors;
    }

    public boolean dynamicAllocation() {
        return maxExecutors > executors;
    }

    /** What Muster's Spark step writes as the PodGroup's minResources: the driver and the executors it starts with. */
    public Resources minResources() {
        return driver.add(executor.multiply(executors));
    }
}
