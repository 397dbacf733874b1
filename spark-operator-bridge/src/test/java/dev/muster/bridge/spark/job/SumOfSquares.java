package dev.muster.bridge.spark.job;

import java.util.List;
import java.util.stream.LongStream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The tests' own Spark job ({@code spark-examples} is not on Maven Central): the sum of the squares
 * of 1..N over as many partitions as the application has executors. Its tasks need executors, so a
 * driver whose executors never start waits, as a real job does.
 */
public final class SumOfSquares {
    private SumOfSquares() {}

    public static void main(String[] args) {
        long count = args.length > 0 ? Long.parseLong(args[0]) : 1000;
        try (JavaSparkContext spark = new JavaSparkContext(new SparkConf().setAppName("sum-of-squares"))) {
            List<Long> numbers = LongStream.rangeClosed(1, count).boxed().toList();
            long sum = spark.parallelize(numbers, Math.max(1, spark.sc().conf().getInt("spark.executor.instances", 2)))
                    .map(value -> value * value).reduce(Long::sum);
            System.out.println("sum of squares of 1.." + count + " = " + sum);
        }
    }
}
