package dev.muster.bridge.spark;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

/**
 * Reads typed values out of Spark confs ({@link ConfSource}), with a {@link ConfProblem} naming the key
 * and the value when one does not parse. Sizes are parsed as Spark's own {@code getSizeAsMb} parses
 * them (so "1g", "512m" and a bare number of MiB mean what they mean to Spark).
 */
final class SparkConfReader {
    private final ConfSource conf;

    SparkConfReader(ConfSource conf) {
        this.conf = requireNonNull(conf, "conf is null");
    }

    Optional<String> string(String key) {
        return conf.get(key).map(String::trim);
    }

    boolean contains(String key) {
        return conf.get(key).isPresent();
    }

    Optional<Integer> nonNegativeInt(String key) {
        Optional<String> value = string(key);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        int parsed;
        try {
            parsed = Integer.parseInt(value.get());
        } catch (NumberFormatException e) {
            throw new ConfProblem(key, "'" + value.get() + "' is not a whole number", e);
        }
        if (parsed < 0) {
            throw new ConfProblem(key, parsed + " is negative; a count of executors is 0 or more");
        }
        return Optional.of(parsed);
    }

    boolean bool(String key, boolean otherwise) {
        Optional<String> value = string(key);
        if (value.isEmpty()) {
            return otherwise;
        }
        if (value.get().equalsIgnoreCase("true")) {
            return true;
        }
        if (value.get().equalsIgnoreCase("false")) {
            return false;
        }
        throw new ConfProblem(key, "'" + value.get() + "' is neither true nor false");
    }

    Optional<Double> nonNegativeDouble(String key) {
        Optional<String> value = string(key);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        double parsed;
        try {
            parsed = Double.parseDouble(value.get());
        } catch (NumberFormatException e) {
            throw new ConfProblem(key, "'" + value.get() + "' is not a number", e);
        }
        if (!(parsed >= 0)) {
            throw new ConfProblem(key, value.get() + " is negative");
        }
        return Optional.of(parsed);
    }

    Optional<Long> sizeInMib(String key) {
        Optional<String> value = string(key);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        long parsed;
        try {
            parsed = conf.sizeInMib(key);
        } catch (NumberFormatException e) {
            throw new ConfProblem(key, "'" + value.get() + "' is not a size (such as 512m or 2g)", e);
        }
        if (parsed < 0) {
            throw new ConfProblem(key, value.get() + " is negative");
        }
        return Optional.of(parsed);
    }

    /** Every conf whose key starts with {@code prefix}, by the rest of the key, in key order. */
    Map<String, String> withPrefix(String prefix) {
        return conf.withPrefix(prefix);
    }
}
