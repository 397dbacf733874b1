package dev.muster.sim;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * How the simulation runs.
 *
 * @param cycleMillis the shortest time between two scheduling cycles (Volcano's schedulePeriod, 1 s)
 * @param stuckAfterMillis a gang partly placed for longer than this counts as stuck
 * @param maxCyclesWithoutEvent a policy still changing its decisions after this many cycles in a
 *     row without an arrival or a completion is declared livelocked and the run stops
 * @param dagHints when present, every gang carries the {@code dag} plugin's annotations (see
 *     {@link DagHints}); absent for workloads that are not DAGs, whose gangs carry no annotation
 * @param estimateHints when present, every gang carries a noisy {@code muster.dev/duration-estimate}
 *     (see {@link EstimateHints})
 * @param historyLimit how many of the gangs that finished most recently each snapshot's
 *     {@link dev.muster.engine.model.JobHistory} holds, with their measured run times; 0 keeps no history
 */
public record SimulationOptions(long cycleMillis, long stuckAfterMillis, int maxCyclesWithoutEvent, Optional<DagHints> dagHints,
        Optional<EstimateHints> estimateHints, int historyLimit) {
    public static final SimulationOptions DEFAULTS = new SimulationOptions(1000, 600_000, 10_000, Optional.empty(), Optional.empty(), 0);

    public SimulationOptions {
        checkArgument(cycleMillis > 0, "cycleMillis must be positive: %s", cycleMillis);
        checkArgument(stuckAfterMillis >= 0, "stuckAfterMillis is negative: %s", stuckAfterMillis);
        checkArgument(maxCyclesWithoutEvent > 0, "maxCyclesWithoutEvent must be positive: %s", maxCyclesWithoutEvent);
        requireNonNull(dagHints, "dagHints is null");
        requireNonNull(estimateHints, "estimateHints is null");
        checkArgument(historyLimit >= 0, "historyLimit is negative: %s", historyLimit);
    }

    public SimulationOptions(long cycleMillis, long stuckAfterMillis, int maxCyclesWithoutEvent, Optional<DagHints> dagHints) {
        this(cycleMillis, stuckAfterMillis, maxCyclesWithoutEvent, dagHints, Optional.empty(), 0);
    }

    public SimulationOptions withStuckAfterMillis(long millis) {
        return new SimulationOptions(cycleMillis, millis, maxCyclesWithoutEvent, dagHints, estimateHints, historyLimit);
    }

    public SimulationOptions withDagHints(DagHints hints) {
        return new SimulationOptions(cycleMillis, stuckAfterMillis, maxCyclesWithoutEvent, Optional.of(hints), estimateHints, historyLimit);
    }

    public SimulationOptions withEstimateHints(EstimateHints hints) {
        return new SimulationOptions(cycleMillis, stuckAfterMillis, maxCyclesWithoutEvent, dagHints, Optional.of(hints), historyLimit);
    }

    public SimulationOptions withHistoryLimit(int limit) {
        return new SimulationOptions(cycleMillis, stuckAfterMillis, maxCyclesWithoutEvent, dagHints, estimateHints, limit);
    }
}
