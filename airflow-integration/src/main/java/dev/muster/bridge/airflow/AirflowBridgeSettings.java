package dev.muster.bridge.airflow;

import static com.google.common.base.Preconditions.checkArgument;
import static java.lang.String.format;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.bridge.airflow.api.AirflowSettings;
import dev.muster.bridge.airflow.hints.HintSettings;
import java.time.Duration;
import java.util.Map;

/**
 * The bridge's settings: how to reach the API, how to make hints, how often to poll. {@link #parse}
 * reads them from settings named as in the module's README; a bad one fails with its name and value.
 */
public record AirflowBridgeSettings(AirflowSettings api, HintSettings hints, Duration pollPeriod) {
    public static final String POLL_PERIOD = "airflow.poll-period";
    public static final String DEFAULT_TASK_DURATION = "airflow.default-task-duration";
    public static final String HISTORY_RUNS = "airflow.history-runs";
    /** The prefix of the pool and queue mapping: {@code airflow.queue.pool:NAME} or {@code airflow.queue.queue:NAME}, valued a Muster queue. */
    public static final String QUEUE_PREFIX = "airflow.queue.";
    public static final Duration DEFAULT_POLL_PERIOD = Duration.ofSeconds(5);

    public AirflowBridgeSettings {
        requireNonNull(api, "api is null");
        requireNonNull(hints, "hints is null");
        requireNonNull(pollPeriod, "pollPeriod is null");
        checkArgument(!pollPeriod.isNegative() && !pollPeriod.isZero(), "airflow.poll-period must be positive: %s", pollPeriod);
    }

    /**
     * Reads every setting: those of {@link AirflowSettings#parse}, {@value #POLL_PERIOD} (default 5s),
     * {@value #DEFAULT_TASK_DURATION}, {@value #HISTORY_RUNS} and the {@value #QUEUE_PREFIX} mapping.
     *
     * @throws IllegalArgumentException naming the first bad or unknown setting and its value
     */
    public static AirflowBridgeSettings parse(Map<String, String> settings) {
        ImmutableMap.Builder<String, String> queues = ImmutableMap.builder();
        for (Map.Entry<String, String> setting : settings.entrySet()) {
            String name = setting.getKey();
            if (name.startsWith(QUEUE_PREFIX)) {
                String key = name.substring(QUEUE_PREFIX.length());
                checkArgument(key.startsWith("pool:") || key.startsWith("queue:"),
                        "%s: '%s' maps neither an Airflow pool (%spool:NAME) nor an Airflow queue (%squeue:NAME)", name, key, QUEUE_PREFIX,
                        QUEUE_PREFIX);
                checkArgument(key.indexOf(':') < key.length() - 1, "%s: names no pool or queue", name);
                checkArgument(!setting.getValue().isBlank(), "%s: names no Muster queue", name);
                queues.put(key, setting.getValue().trim());
            } else if (!AirflowSettings.NAMES.contains(name) && !POLL_PERIOD.equals(name) && !DEFAULT_TASK_DURATION.equals(name)
                    && !HISTORY_RUNS.equals(name)) {
                throw new IllegalArgumentException(format("%s: unknown Airflow bridge setting (known: %s, %s, %s, %s, %sKIND:NAME)", name,
                        String.join(", ", AirflowSettings.NAMES), POLL_PERIOD, DEFAULT_TASK_DURATION, HISTORY_RUNS, QUEUE_PREFIX));
            }
        }
        AirflowSettings api = AirflowSettings.parse(settings);
        Duration taskDuration = settings.containsKey(DEFAULT_TASK_DURATION)
                ? AirflowSettings.duration(DEFAULT_TASK_DURATION, settings.get(DEFAULT_TASK_DURATION))
                : HintSettings.DEFAULTS.defaultTaskDuration();
        int historyRuns = settings.containsKey(HISTORY_RUNS)
                ? AirflowSettings.count(HISTORY_RUNS, settings.get(HISTORY_RUNS))
                : HintSettings.DEFAULTS.historyRuns();
        checkArgument(historyRuns >= 0, "%s: must not be negative: '%s'", HISTORY_RUNS, historyRuns);
        Duration pollPeriod = settings.containsKey(POLL_PERIOD) ? AirflowSettings.duration(POLL_PERIOD, settings.get(POLL_PERIOD))
                : DEFAULT_POLL_PERIOD;
        return new AirflowBridgeSettings(api, new HintSettings(taskDuration, historyRuns, queues.buildKeepingLast()), pollPeriod);
    }
}
