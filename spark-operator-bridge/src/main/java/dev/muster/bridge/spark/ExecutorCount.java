package dev.muster.bridge.spark;

import java.util.Optional;

/**
 * How many executors an application starts with ({@code expected}) and how many of them must start
 * together ({@code gang}), from its Spark confs.
 *
 * <p>{@code expected} is Spark's own initial target ({@code SchedulerBackendUtils
 * .getInitialTargetExecutorNumber} in Spark 4.2.0): with dynamic allocation the largest of
 * {@code spark.dynamicAllocation.minExecutors}, {@code .initialExecutors} and
 * {@code spark.executor.instances}, which must not exceed {@code .maxExecutors}; without it
 * {@code spark.executor.instances}, default 2. {@code gang} is
 * {@value #GANG_KEY} if set, else {@code minExecutors} under dynamic allocation (the executors the
 * application never goes below), else all of {@code expected}.
 */
public record ExecutorCount(int expected, int gang) {
    /** Spark's {@code SchedulerBackendUtils.DEFAULT_NUMBER_EXECUTORS}. */
    static final int DEFAULT_INSTANCES = 2;
    static final String INSTANCES = "spark.executor.instances";
    static final String DYNAMIC_ENABLED = "spark.dynamicAllocation.enabled";
    static final String DYNAMIC_MIN = "spark.dynamicAllocation.minExecutors";
    static final String DYNAMIC_INITIAL = "spark.dynamicAllocation.initialExecutors";
    static final String DYNAMIC_MAX = "spark.dynamicAllocation.maxExecutors";
    /** Muster's conf: how many of the expected executors must start together. */
    public static final String GANG_KEY = MusterConf.PREFIX + "minExecutors";

    public ExecutorCount {
        if (expected < 0 || gang < 0 || gang > expected) {
            throw new IllegalArgumentException("executors: gang " + gang + " of expected " + expected);
        }
    }

    static ExecutorCount read(SparkConfReader conf) {
        int expected;
        int gangDefault;
        if (conf.bool(DYNAMIC_ENABLED, false)) {
            int min = conf.nonNegativeInt(DYNAMIC_MIN).orElse(0);
            int initial = conf.nonNegativeInt(DYNAMIC_INITIAL).orElse(min);
            int instances = conf.nonNegativeInt(INSTANCES).orElse(0);
            expected = Math.max(min, Math.max(initial, instances));
            Optional<Integer> max = conf.nonNegativeInt(DYNAMIC_MAX);
            if (max.isPresent() && expected > max.get()) {
                throw new ConfProblem(DYNAMIC_MAX, max.get() + " is below the initial executors " + expected
                        + " (the largest of " + DYNAMIC_MIN + ", " + DYNAMIC_INITIAL + " and " + INSTANCES + ")");
            }
            gangDefault = min;
        } else {
            expected = conf.nonNegativeInt(INSTANCES).orElse(DEFAULT_INSTANCES);
            gangDefault = expected;
        }
        int gang = conf.nonNegativeInt(GANG_KEY).orElse(gangDefault);
        if (gang > expected) {
            throw new ConfProblem(GANG_KEY, gang + " exceeds the " + expected + " executors the application starts with");
        }
        return new ExecutorCount(expected, gang);
    }
}
