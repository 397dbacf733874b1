package dev.muster.runtime.scheduler;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.runtime.binding.DecisionWriter;
import java.time.Duration;
import java.time.Instant;

/**
 * What one cycle saw, decided and wrote, and how long it took: what metrics and tests read.
 *
 * @param started when the cycle took its snapshot
 * @param cluster the snapshot the session ran on
 * @param actions how long each configured action ran, in configured order
 * @param deserved each queue's deserved share, for the queues a plugin (proportion, capacity) computed one for
 */
public record CycleReport(
        Instant started,
        Duration duration,
        SessionResult decisions,
        DecisionWriter.Written written,
        ClusterSnapshot cluster,
        ImmutableMap<String, Duration> actions,
        ImmutableMap<QueueName, Resources> deserved) {
    public CycleReport {
        requireNonNull(started, "started is null");
        requireNonNull(duration, "duration is null");
        requireNonNull(decisions, "decisions is null");
        requireNonNull(written, "written is null");
        requireNonNull(cluster, "cluster is null");
        actions = ImmutableMap.copyOf(actions);
        deserved = ImmutableMap.copyOf(deserved);
    }

    /** When the cycle finished writing. */
    public Instant finished() {
        return started.plus(duration);
    }
}
