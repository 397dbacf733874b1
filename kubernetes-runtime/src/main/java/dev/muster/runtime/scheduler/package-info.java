/**
 * The scheduling loop: {@link dev.muster.runtime.scheduler.Scheduler} takes a snapshot of the
 * {@link dev.muster.engine.cache.ClusterCache} each period, runs a session over it, and hands the
 * decisions to {@link dev.muster.runtime.binding.DecisionWriter}. No Kubernetes type appears here.
 */
package dev.muster.runtime.scheduler;
