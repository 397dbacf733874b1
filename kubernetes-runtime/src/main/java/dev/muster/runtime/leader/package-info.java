/**
 * High availability: {@link dev.muster.runtime.leader.LeaderElection} campaigns for a
 * {@code coordination.k8s.io/v1} Lease so that, of several replicas, exactly one schedules and
 * another takes over when it dies; its {@link dev.muster.runtime.leader.LeaseFence} closes the writers
 * the moment the lease may no longer be this replica's, by the clock, even before the election notices.
 *
 * <p>The election is ours rather than fabric8's {@code LeaderElector} because of two defects of fabric8's,
 * shown by {@code ElectorChoiceTest}: expiry judged by the holder's clock, and no new campaign after a
 * lost lease.
 */
package dev.muster.runtime.leader;
