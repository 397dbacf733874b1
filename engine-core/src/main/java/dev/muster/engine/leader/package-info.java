/**
 * High availability: {@link dev.muster.engine.leader.LeaderElection} campaigns for a
 * {@code coordination.k8s.io/v1} Lease so that, of several replicas, exactly one schedules and
 * another takes over when it dies. Like {@code cache/} and {@code binding/}, this package is at the
 * Kubernetes edge and uses the fabric8 client.
 */
package dev.muster.engine.leader;
