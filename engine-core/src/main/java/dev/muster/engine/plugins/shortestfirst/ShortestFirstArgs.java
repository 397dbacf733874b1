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
 * @param history which finished jobs are similar to a job without a duration estimate, whose run times
 *     then estimate its own (see {@link SimilarityKey}): {@code none}, or parts joined by {@code +}
 *     from {@code queue}, {@code namespace}, {@code name-prefix}, {@code gpus}, {@code annotation:NAME}.
 *     The default is {@code none}: on the Philly runs of simulator/README.md no key shortened the
 *     average completion time ({@code queue+gpus}, {@code queue}, {@code gpus} and {@code name-prefix}
 *     were 0.04 to 0.9 % slower than no history). History is used only where the cluster keeps it.
 * @param historyRuns how many of the key's most recent finished jobs the median is taken over
 */
public record ShortestFirstArgs(
        @JsonProperty("starvation-threshold") String starvationThreshold,
        @JsonProperty("history") String history,
        @JsonProperty("history-runs") int historyRuns) {
    public static final ShortestFirstArgs DEFAULTS = new ShortestFirstArgs("6h", "none", 10);

    public ShortestFirstArgs {
        requireNonNull(starvationThreshold, "starvationThreshold is null");
        checkArgument(!GoDuration.parse(starvationThreshold).isNegative(),
                "starvation-threshold must not be negative, got '%s'", starvationThreshold);
        requireNonNull(history, "history is null");
        SimilarityKey.parse(history);
        checkArgument(historyRuns > 0, "history-runs must be positive, got %s", historyRuns);
    }

    public Duration threshold() {
        return GoDuration.parse(starvationThreshold);
    }

    SimilarityKey similarity() {
        return SimilarityKey.parse(history);
    }
}
