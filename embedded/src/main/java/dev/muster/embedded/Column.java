package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.base.Splitter;
import java.util.function.Function;

/**
 * A column of the tables kubectl asks the server for ({@code kubectl get} prints what the server
 * lays out): its heading, type, and the cell of an object.
 *
 * @param priority 0 for what {@code kubectl get} shows, 1 for what only {@code -o wide} shows
 */
record Column(String name, String type, int priority, Function<JsonNode, Object> cell) {
    Column {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(cell, "cell is null");
    }

    static Column string(String name, int priority, Function<JsonNode, Object> cell) {
        return new Column(name, "string", priority, cell);
    }

    /** A column of a CRD's {@code additionalPrinterColumns}, whose path is a dotted field path such as {@code .status.phase}. */
    static Column printerColumn(JsonNode definition, Function<JsonNode, Object> age) {
        String path = definition.path("jsonPath").asText("");
        String type = definition.path("type").asText("string");
        if (type.equals("date")) {
            return new Column(definition.path("name").asText(), "string", definition.path("priority").asInt(0), age);
        }
        return new Column(definition.path("name").asText(), type, definition.path("priority").asInt(0), object -> {
            JsonNode value = object;
            for (String field : Splitter.on('.').omitEmptyStrings().split(path)) {
                value = value.path(field);
            }
            if (value.isMissingNode() || value.isNull()) {
                return "";
            }
            return value.isNumber() ? value.numberValue() : value.asText();
        });
    }
}
