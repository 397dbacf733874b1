package dev.muster.sim;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * How the simulation runs.
 *
 * @param cycleMillis the shortest time between two scheduling cycles (Volcano's schedulePeriod, 1 s)
 * @param stuckAfterMillis a gang partly placed for longer than this counts as stuck
 * @param maxCyclesWithoutEvent a policy still changing its decisions after this many cycles in a
 *     row without an arrival or a completion is declared livelocked and the run stops
 */
public record SimulationOptions(long cycleMillis, long stuckAfterMillis, int maxCyclesWithoutEvent) {
    public static final SimulationOptions DEFAULTS = new SimulationOptions(1000, 600_000, 10_000);

    public SimulationOptions {
        checkArgument(cycleMillis > 0, "cycleMillis must be positive: %s", cycleMillis);
        checkArgument(stuckAfterMillis >= 0, "stuckAfterMillis is negative: %s", stuckAfterMillis);
        checkArgument(maxCyclesWithoutEvent > 0, "maxCyclesWithoutEvent must be positive: %s", maxCyclesWithoutEvent);
    }

    public SimulationOptions withStuckAfterMillis(long millis) {
        return new SimulationOptions(cycleMillis, millis, maxCyclesWithoutEvent);
    }
}
