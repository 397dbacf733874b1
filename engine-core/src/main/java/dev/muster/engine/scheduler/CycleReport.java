package dev.muster.engine.scheduler;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.binding.DecisionWriter;
import dev.muster.engine.framework.SessionResult;
import java.time.Duration;
import java.time.Instant;

/**
 * What one cycle decided and wrote, and how long it took: what metrics and tests read.
 *
 * @param started when the cycle took its snapshot
 */
public record CycleReport(Instant started, Duration duration, SessionResult decisions, DecisionWriter.Written written) {
    public CycleReport {
        requireNonNull(started, "started is null");
        requireNonNull(duration, "duration is null");
        requireNonNull(decisions, "decisions is null");
        requireNonNull(written, "written is null");
    }
}
