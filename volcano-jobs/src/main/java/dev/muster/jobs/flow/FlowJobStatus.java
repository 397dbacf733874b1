package dev.muster.jobs.flow;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * One {@code status.jobStatusList[]} entry of a JobFlow.
 *
 * @param state the Job's phase; {@code Skipped} (Muster's) for a stage that will not run because a
 *     stage it depends on failed, with {@code reason} saying which
 */
public record FlowJobStatus(String name, String state, Optional<Instant> startTimestamp, Optional<Instant> endTimestamp, int restartCount,
        String reason) {
    public static final String SKIPPED = "Skipped";

    public FlowJobStatus {
        requireNonNull(name, "name is null");
        requireNonNull(state, "state is null");
        requireNonNull(startTimestamp, "startTimestamp is null");
        requireNonNull(endTimestamp, "endTimestamp is null");
        requireNonNull(reason, "reason is null");
    }
}
