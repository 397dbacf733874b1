package dev.muster.engine.config;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.yaml.Positions;
import java.util.Optional;

/**
 * One problem in a scheduler configuration.
 *
 * @param path where, e.g. {@code tiers[0].plugins[1].arguments}
 * @param position where {@code path} (or the deepest part of it that is written) is in the file; empty
 *     when not known
 */
public record ConfigProblem(String path, String message, Optional<Positions.Position> position) {
    public ConfigProblem {
        requireNonNull(path, "path is null");
        requireNonNull(message, "message is null");
        requireNonNull(position, "position is null");
    }

    /** A problem whose position is not known (yet). */
    public ConfigProblem(String path, String message) {
        this(path, message, Optional.empty());
    }

    /** This problem at its place in {@code positions}, unless it concerns the whole file or already has one. */
    ConfigProblem locatedIn(Positions positions) {
        return path.isEmpty() || position.isPresent() ? this : new ConfigProblem(path, message, positions.of(path));
    }

    @Override
    public String toString() {
        String at = position.map(place -> " (" + place.describe() + ")").orElse("");
        return (path.isEmpty() ? message : path + ": " + message) + at;
    }
}
