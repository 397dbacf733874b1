package dev.muster.engine.cache;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.api.FieldValues;
import dev.muster.engine.yaml.Texts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads typed fields of one manifest object's JSON tree, by {@link FieldValues}' rules: a field of the
 * wrong type is reported as an error naming its path and value and read as absent; {@link #hasErrors()}
 * tells the converter whether to drop the object. Not thread-safe.
 */
final class FieldReader {
    private final ManifestObject object;
    private final Problems problems;
    private final List<String> errors = new ArrayList<>();
    /** This reader's errors as {@link FieldValues} reports them, made once: a snapshot reads a dozen fields of every pod. */
    private final FieldValues.Problems sink = this::error;

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
        return FieldValues.absent(node);
    }

    Optional<String> string(String path) {
        return string(at(path), path);
    }

    /** A scalar as text; YAML may have typed it as a number or boolean, which is accepted as written. */
    Optional<String> string(JsonNode node, String path) {
        return FieldValues.string(node, path, sink);
    }

    Optional<Integer> integer(String path) {
        return integer(at(path), path);
    }

    Optional<Integer> integer(JsonNode node, String path) {
        return FieldValues.integer(node, path, sink);
    }

    Optional<Boolean> bool(String path) {
        return FieldValues.bool(at(path), path, sink);
    }

    /** An RFC 3339 timestamp such as {@code 2026-01-01T00:00:00Z}. */
    Optional<Instant> instant(String path) {
        return FieldValues.instant(at(path), path, sink);
    }

    ImmutableMap<String, String> stringMap(String path) {
        return stringMap(at(path), path);
    }

    /** A map of strings such as labels; an entry whose value is not a scalar is reported and skipped. */
    ImmutableMap<String, String> stringMap(JsonNode node, String path) {
        return FieldValues.stringMap(node, path, sink);
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
        return FieldValues.list(node, path, sink);
    }

    /** True when the node is absent or a map; reports anything else. */
    boolean isMapOrAbsent(JsonNode node, String path) {
        return FieldValues.isMapOrAbsent(node, path, sink);
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
        return FieldValues.describe(node);
    }
}
