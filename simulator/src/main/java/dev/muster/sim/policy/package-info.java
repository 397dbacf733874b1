/**
 * What decides each simulated cycle: Muster's engine with a scheduler configuration, or the
 * baseline model of the default kube-scheduler. Both read the same snapshot and answer with a
 * {@link dev.muster.engine.framework.SessionResult}.
 */
package dev.muster.sim.policy;
