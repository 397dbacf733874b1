package dev.muster.engine.model;

import static java.util.Objects.requireNonNull;

/** A node taint; {@code effect} is NoSchedule, PreferNoSchedule or NoExecute. */
public record Taint(String key, String value, String effect) {
    public Taint {
        requireNonNull(key, "key is null");
        requireNonNull(value, "value is null");
        requireNonNull(effect, "effect is null");
    }
}
