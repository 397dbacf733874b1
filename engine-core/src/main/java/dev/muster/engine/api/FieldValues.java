package dev.muster.engine.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.yaml.Texts;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

/**
 * The one strict reading of a manifest's fields, shared by the engine's manifest converters and Volcano's
 * job controllers: a field of the wrong type is a problem naming its path and value, told to a
 * {@link Problems} sink, and reads as absent; an absent or {@code null} field reads as absent without a
 * problem. The messages are the same wherever a field is read: {@code expected a string, found a map},
 * {@code '1.5' is not an integer}, {@code 'soon' is not an RFC 3339 timestamp}, values cut to a readable
 * length. Stateless and thread-safe; what the caller does with a problem (error, warning, drop the
 * object) is the caller's.
 */
public final class FieldValues {
    /** The shape of {@link #utcSeconds}: a 0 stands for any digit. */
    private static final String UTC_SECONDS = "0000-00-00T00:00:00Z";

    /** Where the problems of one read go. */
    @FunctionalInterface
    public interface Problems {
        /** A problem at {@code path} ({@code spec.minMember}; empty for the object itself). */
        void problem(String path, String message);
    }

    private FieldValues() {}

    /** Whether the node is missing or JSON {@code null}. */
    public static boolean absent(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull();
    }

    /** A scalar as text; YAML may have typed it as a number or boolean, which is accepted as written. */
    public static Optional<String> string(JsonNode node, String path, Problems problems) {
        if (absent(node)) {
            return Optional.empty();
        }
        if (!node.isValueNode()) {
            problems.problem(path, "expected a string, found " + describe(node));
            return Optional.empty();
        }
        return Optional.of(node.asText());
    }

    /** A whole number that fits an {@code int}. */
    public static Optional<Integer> integer(JsonNode node, String path, Problems problems) {
        if (absent(node)) {
            return Optional.empty();
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            problems.problem(path, describe(node) + " is not an integer");
            return Optional.empty();
        }
        return Optional.of(node.intValue());
    }

    public static Optional<Boolean> bool(JsonNode node, String path, Problems problems) {
        if (absent(node)) {
            return Optional.empty();
        }
        if (!node.isBoolean()) {
            problems.problem(path, describe(node) + " is not a boolean");
            return Optional.empty();
        }
        return Optional.of(node.booleanValue());
    }

    /** An RFC 3339 timestamp such as {@code 2026-01-01T00:00:00Z}. */
    public static Optional<Instant> instant(JsonNode node, String path, Problems problems) {
        Optional<String> text = string(node, path, problems);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        Optional<Instant> utc = utcSeconds(text.get());
        if (utc.isPresent()) {
            return utc;
        }
        try {
            return Optional.of(OffsetDateTime.parse(text.get(), DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant());
        } catch (DateTimeParseException e) {
            problems.problem(path, "'" + Texts.shortened(text.get()) + "' is not an RFC 3339 timestamp");
            return Optional.empty();
        }
    }

    /** A list; empty when absent. */
    public static ImmutableList<JsonNode> list(JsonNode node, String path, Problems problems) {
        if (absent(node)) {
            return ImmutableList.of();
        }
        if (!node.isArray()) {
            problems.problem(path, "expected a list, found " + describe(node));
            return ImmutableList.of();
        }
        return ImmutableList.copyOf(node);
    }

    /** A list of scalars as text; an item that is not one is reported ({@code path[i]}) and skipped. */
    public static ImmutableList<String> strings(JsonNode node, String path, Problems problems) {
        ImmutableList<JsonNode> items = list(node, path, problems);
        ImmutableList.Builder<String> values = ImmutableList.builder();
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            if (item.isValueNode() && !item.isNull()) {
                values.add(item.asText());
            } else {
                problems.problem(path + "[" + i + "]", "expected a string, found " + describe(item));
            }
        }
        return values.build();
    }

    /**
     * A map of strings such as labels; a {@code null} value reads as the empty string, an entry whose
     * value is not a scalar is reported ({@code path.key}) and skipped.
     */
    public static ImmutableMap<String, String> stringMap(JsonNode node, String path, Problems problems) {
        if (!isMapOrAbsent(node, path, problems) || absent(node)) {
            return ImmutableMap.of();
        }
        ImmutableMap.Builder<String, String> map = ImmutableMap.builder();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (entry.getValue().isNull()) {
                map.put(entry.getKey(), "");
            } else {
                string(entry.getValue(), path + "." + entry.getKey(), problems).ifPresent(value -> map.put(entry.getKey(), value));
            }
        }
        return map.buildKeepingLast();
    }

    /** True when the node is absent or a map; reports anything else. */
    public static boolean isMapOrAbsent(JsonNode node, String path, Problems problems) {
        if (absent(node) || node.isObject()) {
            return true;
        }
        problems.problem(path, "expected a map, found " + describe(node));
        return false;
    }

    /** A value as a problem names it: {@code a map}, {@code a list}, or the scalar quoted and cut to a readable length. */
    public static String describe(JsonNode node) {
        if (node.isObject()) {
            return "a map";
        }
        if (node.isArray()) {
            return "a list";
        }
        return "'" + Texts.shortened(node.asText()) + "'";
    }

    /**
     * The form the API server writes, {@code 2026-01-01T00:00:00Z}, read without the formatter (which took
     * a tenth of a snapshot); empty for anything else, which the formatter then reads or rejects.
     */
    private static Optional<Instant> utcSeconds(String text) {
        if (text.length() != UTC_SECONDS.length() || text.charAt(19) != 'Z') {
            return Optional.empty();
        }
        for (int index = 0; index < UTC_SECONDS.length() - 1; index++) {
            char expected = UTC_SECONDS.charAt(index);
            char found = text.charAt(index);
            if (expected == '0' ? found < '0' || found > '9' : found != expected) {
                return Optional.empty();
            }
        }
        try {
            return Optional.of(LocalDateTime.of(digits(text, 0, 4), digits(text, 5, 7), digits(text, 8, 10), digits(text, 11, 13),
                    digits(text, 14, 16), digits(text, 17, 19)).toInstant(ZoneOffset.UTC));
        } catch (DateTimeException e) {
            // e.g. February 30: the formatter says what is wrong with it
            return Optional.empty();
        }
    }

    private static int digits(String text, int from, int to) {
        return Integer.parseInt(text, from, to, 10);
    }
}
