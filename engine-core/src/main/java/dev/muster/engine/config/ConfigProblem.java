package dev.muster.engine.config;

import static java.util.Objects.requireNonNull;

/**
 * One problem in a scheduler configuration.
 *
 * @param path where, e.g. {@code tiers[0].plugins[1].arguments}
 */
public record ConfigProblem(String path, String message) {
    public ConfigProblem {
        requireNonNull(path, "path is null");
        requireNonNull(message, "message is null");
    }

    @Override
    public String toString() {
        return path.isEmpty() ? message : path + ": " + message;
    }
}
