package dev.muster.engine.plugins.sla;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.muster.engine.api.GoDuration;
import java.time.Duration;
import java.util.Optional;

/**
 * The sla plugin's arguments, with Volcano's name.
 *
 * @param waitingTime the longest a job should wait to be admitted, as a Go duration ({@code 1h2m});
 *     empty for none, so only jobs with their own {@code sla-waiting-time} annotation have one
 */
public record SlaArgs(@JsonProperty("sla-waiting-time") String waitingTime) {
    public static final SlaArgs DEFAULTS = new SlaArgs("");

    public SlaArgs {
        requireNonNull(waitingTime, "waitingTime is null");
        if (!waitingTime.isEmpty()) {
            checkArgument(!GoDuration.parse(waitingTime).isNegative() && !GoDuration.parse(waitingTime).isZero(),
                    "sla-waiting-time must be positive, got '%s'", waitingTime);
        }
    }

    /** The cluster-wide waiting time, when set. */
    public Optional<Duration> globalWaitingTime() {
        return waitingTime.isEmpty() ? Optional.empty() : Optional.of(GoDuration.parse(waitingTime));
    }
}
