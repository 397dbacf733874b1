package dev.muster.runtime.metrics;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableMap;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** A Prometheus histogram with fixed upper bounds, in seconds: cumulative bucket counts, a sum and a count. */
@ThreadSafe
final class Histogram {
    private final double[] bounds;

    @GuardedBy("this")
    private final long[] counts;

    @GuardedBy("this")
    private double sum;

    @GuardedBy("this")
    private long count;

    Histogram(double... bounds) {
        checkArgument(bounds.length > 0, "no buckets");
        for (int i = 1; i < bounds.length; i++) {
            checkArgument(bounds[i] > bounds[i - 1], "bounds must increase: %s", Arrays.toString(bounds));
        }
        this.bounds = bounds.clone();
        this.counts = new long[bounds.length];
    }

    synchronized void observe(double value) {
        for (int i = 0; i < bounds.length; i++) {
            if (value <= bounds[i]) {
                counts[i]++;
            }
        }
        sum += value;
        count++;
    }

    /** Writes the {@code _bucket}, {@code _sum} and {@code _count} samples, with {@code labels} before {@code le}. */
    synchronized void write(PrometheusText text, String name, ImmutableMap<String, String> labels) {
        for (int i = 0; i < bounds.length; i++) {
            text.sample(name + "_bucket", withBound(labels, PrometheusText.format(bounds[i])), counts[i]);
        }
        text.sample(name + "_bucket", withBound(labels, "+Inf"), count);
        text.sample(name + "_sum", labels, sum);
        text.sample(name + "_count", labels, count);
    }

    synchronized long count() {
        return count;
    }

    private static Map<String, String> withBound(Map<String, String> labels, String bound) {
        Map<String, String> all = new LinkedHashMap<>(labels);
        all.put("le", bound);
        return all;
    }
}
