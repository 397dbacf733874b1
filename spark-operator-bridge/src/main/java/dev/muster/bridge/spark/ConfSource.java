package dev.muster.bridge.spark;

import java.util.Map;
import java.util.Optional;

/**
 * Where Spark confs come from: Spark's own {@code SparkConf} inside {@code spark-submit} and the driver
 * ({@link SparkConfSource}), or a plain map outside Spark, as the SparkApplication bridge builds it from
 * what the spark-operator will pass to {@code spark-submit} ({@link MapConfSource}). The arithmetic
 * ({@link ExecutorCount}, {@link ExecutorResources}) reads either through {@link SparkConfReader}.
 */
interface ConfSource {
    Optional<String> get(String key);

    /** Every conf whose key starts with {@code prefix}, by the rest of the key, in key order. */
    Map<String, String> withPrefix(String prefix);

    /**
     * {@code key}'s value as a size in MiB, as Spark's {@code SparkConf.getSizeAsMb} reads it (a bare
     * number is MiB).
     *
     * @throws NumberFormatException when the value is not a size
     */
    long sizeInMib(String key);
}
