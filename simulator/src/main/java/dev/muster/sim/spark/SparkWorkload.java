package dev.muster.sim.spark;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Generates concurrent TPC-DS-like Spark applications from a seed (the model is in simulator/README.md,
 * "Spark applications under contention"). Each application is one query run by {@code spark-submit} in
 * cluster mode with static allocation: a driver of 1 cpu and 4 GiB plus Spark's default memory overhead
 * (max(10 %, 384 MiB) of it: 4.4 GiB), and 4 to 12 executors of 2 cpu and 8 GiB plus overhead (8.8 GiB).
 * A query has 3 to 8 stages (scan, shuffle joins, aggregation); a stage lasts, with all executors,
 * a log-normal time of median 40 s and sigma 0.8, at least 5 s. Drivers ask for executors 10 to 30 s
 * after they are bound. Arrivals are uniform over the window.
 */
public final class SparkWorkload {
    private static final double GIB = 1024.0 * 1024 * 1024;
    static final Resources DRIVER = Resources.of(1000, 4.4 * GIB);
    static final Resources EXECUTOR = Resources.of(2000, 8.8 * GIB);

    private SparkWorkload() {}

    /** The spark-operator's dynamic allocation example ({@code spark-pi-dynamic-allocation.yaml}): initialExecutors 2. */
    static final int DYNAMIC_INITIAL = 2;
    /** The same example's minExecutors 1: what Muster's Spark step writes as the gang under dynamic allocation. */
    static final int DYNAMIC_MIN = 1;

    /**
     * @param applications how many applications arrive
     * @param windowMillis over how long they arrive
     * @param gangRatio the share of each application's executors that must start together, rounded up (static allocation)
     * @param dynamicAllocation whether the applications use dynamic allocation: they start with
     *     {@value #DYNAMIC_INITIAL} executors, place {@value #DYNAMIC_MIN} together, and ask for more up to
     *     the executors drawn for them (the same draw as in static allocation, so the work is the same)
     */
    public static ImmutableList<SparkAppSpec> generate(int applications, long windowMillis, double gangRatio, boolean dynamicAllocation,
            long seed) {
        checkArgument(gangRatio >= 0 && gangRatio <= 1, "gang ratio must be within 0 and 1: %s", gangRatio);
        checkArgument(applications > 0, "applications must be positive: %s", applications);
        checkArgument(windowMillis >= 0, "window must not be negative: %s", windowMillis);
        Random random = new Random(seed);
        List<SparkAppSpec> apps = new ArrayList<>();
        for (int i = 0; i < applications; i++) {
            long arrival = windowMillis == 0 ? 0 : (long) (random.nextDouble() * windowMillis);
            int executors = 4 + random.nextInt(9);
            long startup = 10_000 + (long) (random.nextDouble() * 20_000);
            int stages = 3 + random.nextInt(6);
            ImmutableList.Builder<Long> durations = ImmutableList.builder();
            for (int s = 0; s < stages; s++) {
                double seconds = Math.max(5, 40 * Math.exp(0.8 * random.nextGaussian()));
                durations.add(Math.round(seconds * 1000));
            }
            String name = String.format("q%03d", i);
            if (dynamicAllocation) {
                apps.add(new SparkAppSpec(name, arrival, DRIVER, EXECUTOR, DYNAMIC_INITIAL, executors, DYNAMIC_MIN, startup, durations.build()));
            } else {
                int gang = (int) Math.ceil(gangRatio * executors - 1e-9);
                apps.add(new SparkAppSpec(name, arrival, DRIVER, EXECUTOR, executors, executors, gang, startup, durations.build()));
            }
        }
        apps.sort(Comparator.comparingLong(SparkAppSpec::arrivalMillis));
        return ImmutableList.copyOf(apps);
    }
}
