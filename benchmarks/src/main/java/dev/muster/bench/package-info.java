/**
 * JMH benchmarks: one allocate cycle of the default configuration over a synthetic cluster
 * ({@link dev.muster.bench.AllocateCycleBenchmark}) and the simulator's own speed in simulated jobs per
 * wall-clock second ({@link dev.muster.bench.SimulatorBenchmark}). Nothing depends on this package; the
 * test suite never runs it. How to run it: {@code benchmarks/README.md}.
 */
package dev.muster.bench;
