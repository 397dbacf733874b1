/**
 * Operations: {@link dev.muster.engine.metrics.SchedulerMetrics} turns each cycle's
 * {@link dev.muster.engine.scheduler.CycleReport} into counters, histograms and gauges;
 * {@link dev.muster.engine.metrics.Health} holds liveness and readiness; and
 * {@link dev.muster.engine.metrics.OperationsServer} serves both over HTTP ({@code /metrics} in the
 * Prometheus text format, {@code /healthz}, {@code /readyz}) with the JDK's own HTTP server.
 */
package dev.muster.engine.metrics;
