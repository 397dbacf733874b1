/**
 * Operations: {@link dev.muster.runtime.metrics.SchedulerMetrics} turns each cycle's
 * {@link dev.muster.runtime.scheduler.CycleReport} into counters, histograms and gauges;
 * {@link dev.muster.runtime.metrics.Health} holds liveness and readiness; and
 * {@link dev.muster.runtime.metrics.OperationsServer} serves both over HTTP ({@code /metrics} in the
 * Prometheus text format, {@code /healthz}, {@code /readyz}) with the JDK's own HTTP server.
 */
package dev.muster.runtime.metrics;
