package dev.muster.engine.plugins.resourcestrategyfit;

import static com.google.common.base.Preconditions.checkArgument;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * How one resource (or a {@code prefix/*} family) is scored. Unset, the type is LeastAllocated and
 * the weight 1, as in Volcano; a weight below 1, which Volcano silently turns into 1, is an error.
 */
public record ResourceStrategy(ScoringType type, int weight) {
    public ResourceStrategy {
        Objects.requireNonNull(type, "type is null");
        checkArgument(weight > 0, "weight must be positive: %s", weight);
    }

    @JsonCreator
    static ResourceStrategy of(@JsonProperty("type") ScoringType type, @JsonProperty("weight") Integer weight) {
        return new ResourceStrategy(
                Objects.requireNonNullElse(type, ScoringType.LeastAllocated),
                Objects.requireNonNullElse(weight, 1));
    }
}
