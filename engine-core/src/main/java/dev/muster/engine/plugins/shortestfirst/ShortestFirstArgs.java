package dev.muster.engine.plugins.shortestfirst;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.muster.engine.api.GoDuration;
import java.time.Duration;

/**
 * The shortestfirst plugin's arguments.
 *
 * @param starvationThreshold how long a job may wait (since its PodGroup was created) before it goes
 *     ahead of every job that has waited less, whatever its expected work, as a Go duration
 *     ({@code 6h}); so shortest-first cannot starve a large gang. {@code 0s} turns aging off.
 */
public record ShortestFirstArgs(@JsonProperty("starvation-threshold") String starvationThreshold) {
    public static final ShortestFirstArgs DEFAULTS = new ShortestFirstArgs("6h");

    public ShortestFirstArgs {
        requireNonNull(starvationThreshold, "starvationThreshold is null");
        checkArgument(!GoDuration.parse(starvationThreshold).isNegative(),
                "starvation-threshold must not be negative, got '%s'", starvationThreshold);
    }

    public Duration threshold() {
        return GoDuration.parse(starvationThreshold);
    }
}
