package dev.muster.jobs;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.engine.api.GoDuration;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads the fields of one JSON object strictly: a field that is not in {@code known}, or of the wrong
 * type, is a problem naming its path and value; the field then reads as absent. Problems collect in a
 * list shared by every reader of one manifest. Not thread-safe.
 */
public final class Fields {
    private final JsonNode node;
    private final String path;
    private final List<String> problems;

    private Fields(JsonNode node, String path, List<String> problems) {
        this.node = requireNonNull(node, "node is null");
        this.path = requireNonNull(path, "path is null");
        this.problems = requireNonNull(problems, "problems is null");
    }

    /** Reads {@code node} at {@code path}; reports it if it is not a map and every field not in {@code known}. */
    public static Fields of(JsonNode node, String path, List<String> problems, ImmutableSet<String> known) {
        Fields fields = new Fields(node, path, problems);
        if (absent(node)) {
            return fields;
        }
        if (!node.isObject()) {
            fields.problem(path, "expected a map, found " + describe(node));
            return new Fields(MissingNode.getInstance(), path, problems);
        }
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (!known.contains(entry.getKey())) {
                fields.problem(fields.child(entry.getKey()), "unknown field (known: " + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        }
        return fields;
    }

    public static Fields root(JsonNode node, List<String> problems, ImmutableSet<String> known) {
        return of(node, "", problems, known);
    }

    public static boolean absent(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull();
    }

    public JsonNode get(String field) {
        return node.path(field);
    }

    public String child(String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    public List<String> problems() {
        return problems;
    }

    public Optional<String> string(String field) {
        JsonNode value = get(field);
        if (absent(value)) {
            return Optional.empty();
        }
        if (!value.isValueNode()) {
            problem(child(field), "expected a string, found " + describe(value));
            return Optional.empty();
        }
        return Optional.of(value.asText());
    }

    public OptionalInt integer(String field) {
        JsonNode value = get(field);
        if (absent(value)) {
            return OptionalInt.empty();
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            problem(child(field), describe(value) + " is not an integer");
            return OptionalInt.empty();
        }
        return OptionalInt.of(value.intValue());
    }

    /** An integer that must not be negative. */
    public OptionalInt count(String field) {
        OptionalInt value = integer(field);
        if (value.isPresent() && value.getAsInt() < 0) {
            problem(child(field), value.getAsInt() + " is negative");
            return OptionalInt.empty();
        }
        return value;
    }

    public Optional<Duration> duration(String field) {
        Optional<String> text = string(field);
        try {
            Optional<Duration> duration = text.map(GoDuration::parse);
            if (duration.isPresent() && duration.get().isNegative()) {
                problem(child(field), "'" + text.get() + "' is negative");
                return Optional.empty();
            }
            return duration;
        } catch (IllegalArgumentException e) {
            problem(child(field), e.getMessage());
            return Optional.empty();
        }
    }

    public Optional<Instant> instant(String field) {
        Optional<String> text = string(field);
        try {
            return text.map(value -> OffsetDateTime.parse(value).toInstant());
        } catch (DateTimeParseException e) {
            problem(child(field), "'" + text.orElseThrow() + "' is not an RFC 3339 timestamp");
            return Optional.empty();
        }
    }

    public ImmutableList<JsonNode> list(String field) {
        JsonNode value = get(field);
        if (absent(value)) {
            return ImmutableList.of();
        }
        if (!value.isArray()) {
            problem(child(field), "expected a list, found " + describe(value));
            return ImmutableList.of();
        }
        return ImmutableList.copyOf(value);
    }

    public ImmutableList<String> strings(String field) {
        ImmutableList<JsonNode> items = list(field);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            if (item.isValueNode() && !item.isNull()) {
                values.add(item.asText());
            } else {
                problem(child(field) + "[" + i + "]", "expected a string, found " + describe(item));
            }
        }
        return ImmutableList.copyOf(values);
    }

    public ImmutableMap<String, String> stringMap(String field) {
        JsonNode value = get(field);
        if (absent(value)) {
            return ImmutableMap.of();
        }
        if (!value.isObject()) {
            problem(child(field), "expected a map, found " + describe(value));
            return ImmutableMap.of();
        }
        ImmutableMap.Builder<String, String> map = ImmutableMap.builder();
        for (Map.Entry<String, JsonNode> entry : value.properties()) {
            if (entry.getValue().isValueNode()) {
                map.put(entry.getKey(), entry.getValue().isNull() ? "" : entry.getValue().asText());
            } else {
                problem(child(field) + "." + entry.getKey(), "expected a string, found " + describe(entry.getValue()));
            }
        }
        return map.buildKeepingLast();
    }

    /** Records a problem at {@code fieldPath}. */
    public void problem(String fieldPath, String message) {
        problems.add(fieldPath.isEmpty() ? message : fieldPath + ": " + message);
    }

    public static String describe(JsonNode value) {
        if (value.isObject()) {
            return "a map";
        }
        if (value.isArray()) {
            return "a list";
        }
        return "'" + value.asText() + "'";
    }
}
