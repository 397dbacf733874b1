package dev.muster.runtime;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import dev.muster.runtime.history.HistoryOptions;
import dev.muster.runtime.leader.LeaseConfig;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * How the runtime schedules: the configuration text (parsed by the injector's loader, which knows the
 * plugins of every installed module), the scheduler names whose pods it places, the time between
 * cycles and, with leader election, the Lease.
 *
 * @param configSource where {@code configText} came from, for error messages
 * @param scheduling whether the scheduling loop runs; without it, only the contributed controllers do
 *     (an embedded cluster where another scheduler is tried)
 * @param history where the leader keeps the history of finished jobs, and how many
 */
public record RuntimeOptions(String configSource, String configText, ImmutableSet<String> schedulerNames, Duration period,
        Optional<LeaseConfig> lease, boolean scheduling, HistoryOptions history) {
    public RuntimeOptions {
        requireNonNull(configSource, "configSource is null");
        requireNonNull(configText, "configText is null");
        checkArgument(!schedulerNames.isEmpty(), "schedulerNames is empty");
        requireNonNull(period, "period is null");
        checkArgument(!period.isNegative() && !period.isZero(), "period must be positive: %s", period);
        requireNonNull(lease, "lease is null");
        requireNonNull(history, "history is null");
    }

    public RuntimeOptions(String configSource, String configText, Set<String> schedulerNames, Duration period, Optional<LeaseConfig> lease) {
        this(configSource, configText, ImmutableSet.copyOf(schedulerNames), period, lease, true, HistoryOptions.DEFAULTS);
    }

    /** The same options, the scheduling loop left out: the controllers run alone. */
    public RuntimeOptions withoutScheduling() {
        return new RuntimeOptions(configSource, configText, schedulerNames, period, lease, false, history);
    }

    public RuntimeOptions withHistory(HistoryOptions newHistory) {
        return new RuntimeOptions(configSource, configText, schedulerNames, period, lease, scheduling, newHistory);
    }
}
