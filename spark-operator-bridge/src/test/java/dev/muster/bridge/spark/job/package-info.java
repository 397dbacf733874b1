/** A small Spark job of the tests' own, packaged into a jar by {@code TestJars} and given to {@code spark-submit}. */
package dev.muster.bridge.spark.job;
