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
 */
public record ExecutorReservationArgs(@JsonProperty("hold-timeout") String holdTimeout) {
    public static final ExecutorReservationArgs DEFAULTS = new ExecutorReservationArgs("5m");

    public ExecutorReservationArgs {
        requireNonNull(holdTimeout, "holdTimeout is null");
        Duration parsed = GoDuration.parse(holdTimeout);
        checkArgument(!parsed.isNegative() && !parsed.isZero(), "hold-timeout must be positive, got '%s'", holdTimeout);
    }

    public Duration timeout() {
        return GoDuration.parse(holdTimeout);
    }
}
