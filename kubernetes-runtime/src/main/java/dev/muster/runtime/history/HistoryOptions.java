package dev.muster.runtime.history;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * Where and how much of the job history the runtime keeps.
 *
 * @param namespace the ConfigMap's namespace; empty means the scheduler's own: the Lease's with leader
 *     election, else the client's
 * @param configMap the ConfigMap's name
 * @param limit how many finished jobs are kept, the newest
 * @param writeEvery the shortest time between two writes of the ConfigMap, so a busy cluster's finishing
 *     jobs cost one write per period, not one each
 */
public record HistoryOptions(Optional<String> namespace, String configMap, int limit, Duration writeEvery) {
    public static final String DEFAULT_CONFIG_MAP = "muster-job-history";
    public static final int DEFAULT_LIMIT = 1000;
    public static final Duration DEFAULT_WRITE_EVERY = Duration.ofSeconds(30);
    public static final HistoryOptions DEFAULTS = new HistoryOptions(Optional.empty(), DEFAULT_CONFIG_MAP, DEFAULT_LIMIT, DEFAULT_WRITE_EVERY);

    public HistoryOptions {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(configMap, "configMap is null");
        checkArgument(!configMap.isEmpty(), "history ConfigMap name is empty");
        checkArgument(limit > 0 && limit <= HistoryCodec.MAX_JOBS, "history limit must be between 1 and %s: %s", HistoryCodec.MAX_JOBS, limit);
        requireNonNull(writeEvery, "writeEvery is null");
        checkArgument(!writeEvery.isNegative(), "history write period is negative: %s", writeEvery);
    }

    public HistoryOptions withWriteEvery(Duration newWriteEvery) {
        return new HistoryOptions(namespace, configMap, limit, newWriteEvery);
    }

    public HistoryOptions withLimit(int newLimit) {
        return new HistoryOptions(namespace, configMap, newLimit, writeEvery);
    }
}
