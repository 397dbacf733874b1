package dev.muster.engine.model;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A job's network topology constraint: in {@code hard} mode all its tasks must lie in one hypernode
 * of tier at most {@code highestTierAllowed}; {@code soft} is best effort.
 */
public record NetworkTopology(boolean hard, Optional<Integer> highestTierAllowed, Optional<String> highestTierName) {
    public NetworkTopology {
        requireNonNull(highestTierAllowed, "highestTierAllowed is null");
        requireNonNull(highestTierName, "highestTierName is null");
    }
}
