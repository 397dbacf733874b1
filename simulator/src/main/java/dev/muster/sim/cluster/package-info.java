/**
 * The simulated cluster: node pools read from a small YAML format and expanded into
 * {@link dev.muster.engine.model.ClusterNode}s with rack labels.
 */
package dev.muster.sim.cluster;
