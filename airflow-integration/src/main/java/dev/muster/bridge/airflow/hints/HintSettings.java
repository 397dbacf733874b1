package dev.muster.bridge.airflow.hints;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import java.time.Duration;
import java.util.Map;

/**
 * How hints are made: the estimate for a task with no successful earlier run, how many earlier runs
 * to learn durations from, and which Muster queue an Airflow pool ({@code pool:NAME}) or queue
 * ({@code queue:NAME}) maps to; the pool is looked up first. Unmapped ones get no queue (Muster's default).
 */
public record HintSettings(Duration defaultTaskDuration, int historyRuns, Map<String, String> queues) {
    public static final HintSettings DEFAULTS = new HintSettings(Duration.ofMinutes(1), 5, Map.of());

    public HintSettings {
        requireNonNull(defaultTaskDuration, "defaultTaskDuration is null");
        checkArgument(!defaultTaskDuration.isNegative(), "defaultTaskDuration is negative: %s", defaultTaskDuration);
        checkArgument(historyRuns >= 0, "historyRuns is negative: %s", historyRuns);
        queues = ImmutableMap.copyOf(queues);
        queues.keySet().forEach(key -> checkArgument(key.startsWith("pool:") || key.startsWith("queue:"),
                "airflow queue mapping: key '%s' must be pool:NAME or queue:NAME", key));
    }
}
