/**
 * High availability: {@link dev.muster.runtime.leader.LeaderElection} campaigns for a
 * {@code coordination.k8s.io/v1} Lease so that, of several replicas, exactly one schedules and
 * another takes over when it dies.
 */
package dev.muster.runtime.leader;
