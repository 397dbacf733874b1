/**
 * Network topology: the hypernode tree of a snapshot, its tiers, leaf nodes and lowest common
 * ancestors, the ground for network-topology-aware allocation.
 */
package dev.muster.engine.topology;
