package dev.muster.engine.plugins.executorreservation;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.muster.engine.api.GoDuration;
import java.time.Duration;

/**
 * The executorreservation plugin's arguments.
 *
 * @param holdTimeout how long after its driver started (its PodGroup's creation when no driver pod is
 *     seen, as in client mode) an application's executor room is held and its first executors are
 *     placed only together, as a Go duration ({@code 5m}); then the hold is released. Must be positive.
 * @param gangWait how long after its first executor pod was created an application's first executors
 *     are placed only together ({@code 30s}: Spark's {@code spark.scheduler.maxRegisteredResourcesWaitingTime},
 *     after which Spark runs tasks on the executors it has); then they are placed as they fit, into
 *     the room still held for them first. Must be positive.
 */
public record ExecutorReservationArgs(@JsonProperty("hold-timeout") String holdTimeout, @JsonProperty("gang-wait") String gangWait) {
    public static final ExecutorReservationArgs DEFAULTS = new ExecutorReservationArgs("5m", "30s");

    public ExecutorReservationArgs {
        requireNonNull(holdTimeout, "holdTimeout is null");
        requireNonNull(gangWait, "gangWait is null");
        Duration parsed = GoDuration.parse(holdTimeout);
        checkArgument(!parsed.isNegative() && !parsed.isZero(), "hold-timeout must be positive, got '%s'", holdTimeout);
        Duration wait = GoDuration.parse(gangWait);
        checkArgument(!wait.isNegative() && !wait.isZero(), "gang-wait must be positive, got '%s'", gangWait);
    }

    public Duration timeout() {
        return GoDuration.parse(holdTimeout);
    }

    public Duration gangWaitDuration() {
        return GoDuration.parse(gangWait);
    }
}
