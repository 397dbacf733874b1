package dev.muster.engine.model;

import static java.util.Objects.requireNonNull;

/**
 * A pod toleration. An empty key with operator Exists tolerates every taint; an empty effect
 * matches every effect.
 */
public record Toleration(String key, String operator, String value, String effect) {
    public Toleration {
        requireNonNull(key, "key is null");
        requireNonNull(operator, "operator is null");
        requireNonNull(value, "value is null");
        requireNonNull(effect, "effect is null");
    }

    public boolean tolerates(Taint taint) {
        if (!effect.isEmpty() && !effect.equals(taint.effect())) {
            return false;
        }
        if (key.isEmpty()) {
            return operator.equals("Exists");
        }
        if (!key.equals(taint.key())) {
            return false;
        }
        return switch (operator) {
            case "Exists" -> true;
            case "", "Equal" -> value.equals(taint.value());
            default -> false;
        };
    }
}
