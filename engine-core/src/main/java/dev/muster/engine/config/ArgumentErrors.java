package dev.muster.engine.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.engine.yaml.Texts;

/** Binding errors of plugin and action arguments said in the configuration's terms, not Jackson's. */
final class ArgumentErrors {
    private ArgumentErrors() {}

    /** What a user would call the type an argument wants (Jackson's message names Java types). */
    static String expected(Class<?> type) {
        if (type == null) {
            return "another type";
        }
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return "a whole number";
        }
        if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class || type.isEnum()) {
            return "a string";
        }
        if (Iterable.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        return "a mapping";
    }

    /** The value the user gave at a dotted path under {@code given}, quoted, or null when there is none. */
    static String argument(JsonNode given, String path) {
        // argument names may hold dots themselves (predicate.NodeAffinityEnable): try the whole path first
        JsonNode node = given.get(path);
        if (node == null) {
            node = given;
            for (String step : path.split("\\.")) {
                node = node == null ? null : node.get(step);
            }
        }
        if (node == null) {
            return null;
        }
        return node.isObject() ? "a mapping" : node.isArray() ? "a list" : "'" + Texts.shortened(node.asText()) + "'";
    }

    /**
     * The message of the innermost cause: the args records' own checks (e.g. {@code cpuWeight must be
     * positive: -1}) throw it; a failure of Jackson's own, without such a cause, is said in our words.
     */
    static String rootMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof JsonProcessingException || cause.getMessage() == null) {
            return "the arguments cannot be read";
        }
        return Texts.shortenedQuotes(cause.getMessage());
    }
}
