package dev.muster.runtime.binding;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How writes to the API server are retried within one cycle; whatever still fails is decided again
 * in the next cycle.
 *
 * @param attempts tries per request, at least 1
 * @param firstBackoff the pause before the second try; it doubles for each further try
 * @param requestTimeout how long one request may take
 */
public record RetryPolicy(int attempts, Duration firstBackoff, Duration requestTimeout) {
    public static final RetryPolicy DEFAULT = new RetryPolicy(3, Duration.ofMillis(100), Duration.ofSeconds(10));

    public RetryPolicy {
        checkArgument(attempts >= 1, "attempts must be at least 1: %s", attempts);
        requireNonNull(firstBackoff, "firstBackoff is null");
        requireNonNull(requestTimeout, "requestTimeout is null");
    }

    /** The pause after the {@code attempt}th try (1-based). */
    Duration backoff(int attempt) {
        return firstBackoff.multipliedBy(1L << Math.min(attempt - 1, 20));
    }
}
