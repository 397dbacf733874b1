/**
 * Operations: {@link dev.muster.runtime.metrics.SchedulerMetrics} turns each cycle's
 * {@link dev.muster.runtime.scheduler.CycleReport} into the Prometheus client's counters, histograms and gauges;
 * {@link dev.muster.runtime.metrics.Health} holds liveness and readiness; and
 * {@link dev.muster.runtime.metrics.OperationsServer} serves both over HTTP ({@code /metrics}, with the JVM's
 * metrics too, through the official Prometheus client and its HTTP server; {@code /healthz}, {@code /readyz}).
 */
package dev.muster.runtime.metrics;
