package dev.muster.engine.cache;

import static java.util.Objects.requireNonNull;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads typed fields of one manifest object's JSON tree. A field of the wrong type is reported as an
 * error naming its path and value and read as absent; {@link #hasErrors()} tells the converter
 * whether to drop the object. Not thread-safe.
 */
final class FieldReader {
    /** The shape of {@link #utcSeconds}: a 0 stands for any digit. */
    private static final String UTC_SECONDS = "0000-00-00T00:00:00Z";

    private final ManifestObject object;
    private final Problems problems;
    private final List<String> errors = new ArrayList<>();

    FieldReader(ManifestObject object, Problems problems) {
        this.object = requireNonNull(object, "object is null");
        this.problems = requireNonNull(problems, "problems is null");
    }

    /** The node at a dotted path from the object's root; a missing node when any step is absent. */
    JsonNode at(String path) {
        // a loop rather than a Splitter: a snapshot reads a dozen paths of every pod, every cycle
        JsonNode node = object.body();
        int start = 0;
        for (int dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', start)) {
            node = node.path(path.substring(start, dot));
            start = dot + 1;
        }
        return node.path(path.substring(start));
    }

    static boolean absent(JsonNode node) {
        return node.isMissingNode() || node.isNull();
    }

    Optional<String> string(String path) {
        return string(at(path), path);
    }

    /** A scalar as text; YAML may have typed it as a number or boolean, which is accepted as written. */
    Optional<String> string(JsonNode node, String path) {
        if (absent(node)) {
            return Optional.empty();
        }
        if (!node.isValueNode()) {
            error(path, "expected a string, found " + describe(node));
            return Optional.empty();
        }
        return Optional.of(node.asText());
    }

    Optional<Integer> integer(String path) {
        return integer(at(path), path);
    }

    Optional<Integer> integer(JsonNode node, String path) {
        if (absent(node)) {
            return Optional.empty();
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            error(path, describe(node) + " is not an integer");
            return Optional.empty();
        }
        return Optional.of(node.intValue());
    }

    Optional<Boolean> bool(String path) {
        JsonNode node = at(path);
        if (absent(node)) {
            return Optional.empty();
        }
        if (!node.isBoolean()) {
            error(path, describe(node) + " is not a boolean");
            return Optional.empty();
        }
        return Optional.of(node.booleanValue());
    }

    /** An RFC 3339 timestamp such as {@code 2026-01-01T00:00:00Z}. */
    Optional<Instant> instant(String path) {
        Optional<String> text = string(path);
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
            error(path, "'" + text.get() + "' is not an RFC 3339 timestamp");
            return Optional.empty();
        }
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

    ImmutableMap<String, String> stringMap(String path) {
        return stringMap(at(path), path);
    }

    /** A map of strings such as labels; an entry whose value is not a scalar is reported and skipped. */
    ImmutableMap<String, String> stringMap(JsonNode node, String path) {
        if (absent(node)) {
            return ImmutableMap.of();
        }
        if (!node.isObject()) {
            error(path, "expected a map, found " + describe(node));
            return ImmutableMap.of();
        }
        ImmutableMap.Builder<String, String> map = ImmutableMap.builder();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (entry.getValue().isNull()) {
                map.put(entry.getKey(), "");
            } else {
                string(entry.getValue(), path + "." + entry.getKey()).ifPresent(value -> map.put(entry.getKey(), value));
            }
        }
        return map.buildKeepingLast();
    }

    /** Labels at {@code path}, each key and value checked as kube-apiserver checks them; a bad one is reported. */
    ImmutableMap<String, String> labels(String path) {
        ImmutableMap<String, String> labels = stringMap(path);
        for (Map.Entry<String, String> label : labels.entrySet()) {
            KubernetesNames.labelKey(label.getKey()).ifPresent(problem -> error(path, problem));
            KubernetesNames.labelValue(label.getValue())
                    .ifPresent(problem -> error(path + "." + Texts.shortened(label.getKey()), problem));
        }
        return labels;
    }

    ImmutableList<JsonNode> array(String path) {
        return array(at(path), path);
    }

    ImmutableList<JsonNode> array(JsonNode node, String path) {
        if (absent(node)) {
            return ImmutableList.of();
        }
        if (!node.isArray()) {
            error(path, "expected a list, found " + describe(node));
            return ImmutableList.of();
        }
        return ImmutableList.copyOf(node);
    }

    /** True when the node is absent or a map; reports anything else. */
    boolean isMapOrAbsent(JsonNode node, String path) {
        if (absent(node) || node.isObject()) {
            return true;
        }
        error(path, "expected a map, found " + describe(node));
        return false;
    }

    void error(String path, String message) {
        // kept on the job as its reason, printed and posted as an event: quoted values cut as in problems
        errors.add(Texts.shortenedQuotes(path.isEmpty() ? message : path + ": " + message));
        problems.add(object.error(path, message));
    }

    void warning(String path, String message) {
        problems.add(object.warning(path, message));
    }

    boolean hasErrors() {
        return !errors.isEmpty();
    }

    /** The errors reported so far ({@code field: message}), for converters that keep a bad object. */
    ImmutableList<String> errors() {
        return ImmutableList.copyOf(errors);
    }

    static String describe(JsonNode node) {
        if (node.isObject()) {
            return "a map";
        }
        if (node.isArray()) {
            return "a list";
        }
        return "'" + Texts.shortened(node.asText()) + "'";
    }
}
