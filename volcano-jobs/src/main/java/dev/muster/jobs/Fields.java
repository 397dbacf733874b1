package dev.muster.jobs;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.engine.api.FieldValues;
import dev.muster.engine.api.GoDuration;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads the fields of one JSON object strictly: a field that is not in {@code known}, or of the wrong
 * type ({@link FieldValues}' rules, which the engine's manifest reading shares), is a problem naming its
 * path and value; the field then reads as absent. Problems collect in a
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
        return FieldValues.absent(node);
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
        return FieldValues.string(get(field), child(field), this::problem);
    }

    public OptionalInt integer(String field) {
        return FieldValues.integer(get(field), child(field), this::problem).map(OptionalInt::of).orElse(OptionalInt.empty());
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
        return FieldValues.instant(get(field), child(field), this::problem);
    }

    public ImmutableList<JsonNode> list(String field) {
        return FieldValues.list(get(field), child(field), this::problem);
    }

    public ImmutableList<String> strings(String field) {
        return FieldValues.strings(get(field), child(field), this::problem);
    }

    public ImmutableMap<String, String> stringMap(String field) {
        return FieldValues.stringMap(get(field), child(field), this::problem);
    }

    /** Records a problem at {@code fieldPath}. */
    public void problem(String fieldPath, String message) {
        problems.add(fieldPath.isEmpty() ? message : fieldPath + ": " + message);
    }

    public static String describe(JsonNode value) {
        return FieldValues.describe(value);
    }
}
