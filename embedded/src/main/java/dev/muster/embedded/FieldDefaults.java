package dev.muster.embedded;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Setting a default where a field is absent (or, for text, empty), as the API defaulting functions do. */
final class FieldDefaults {
    private FieldDefaults() {}

    static void putIfEmpty(ObjectNode object, String field, String value) {
        if (object.path(field).asText("").isEmpty()) {
            object.put(field, value);
        }
    }

    static void putIfAbsent(ObjectNode object, String field, int value) {
        if (!object.hasNonNull(field)) {
            object.put(field, value);
        }
    }

    static void putIfAbsent(ObjectNode object, String field, boolean value) {
        if (!object.hasNonNull(field)) {
            object.put(field, value);
        }
    }
}
