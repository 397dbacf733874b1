package dev.muster.sim.policy;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import java.time.Clock;

/**
 * Decides one scheduling cycle of a simulation. Called on the simulation's thread, once per
 * cycle, with the cluster as it stands; the simulation applies the binds and evictions it returns.
 * An instance serves one simulation run and may keep state between its cycles (as a scheduler's
 * queue does); it must not read the wall clock or unseeded randomness.
 */
public interface SchedulingPolicy {
    SessionResult schedule(ClusterSnapshot snapshot, Clock clock);
}
