/**
 * A discrete-event simulation of a Kubernetes cluster that runs Muster's real engine (or the
 * per-pod baseline) on a simulated clock: jobs arrive from a workload, each cycle builds a
 * {@link dev.muster.engine.model.ClusterSnapshot}, the policy's binds start pods and its evictions
 * requeue them, and a gang makes progress only while all of its pods run.
 */
package dev.muster.sim;
