/**
 * The Spark-shaped workload of issue 12: applications whose driver starts, then asks for its executors
 * after a start-up delay, run under contention for the baseline and Muster's configurations.
 */
package dev.muster.sim.spark;
