package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code fieldValidation=Strict}, which kubectl sends on every write once the server's OpenAPI says it
 * is supported: an object with a field its schema does not declare is refused, as kube-apiserver's
 * strict decoding refuses it ({@code strict decoding error: unknown field "spec.foo"}). A node whose
 * schema declares no properties, or allows any (a map, {@code x-kubernetes-preserve-unknown-fields}),
 * takes any field.
 */
final class FieldValidation {
    private FieldValidation() {}

    /** Whether the request asks for strict validation. */
    static boolean strict(String path) {
        return QueryParameters.of(path).get("fieldValidation").map("Strict"::equals).orElse(false);
    }

    /** kube-apiserver's message when the object has undeclared fields, naming each; empty when it has none. */
    static Optional<String> problem(JsonNode object, FieldSchema schema) {
        List<String> unknown = new ArrayList<>();
        walk(object, schema, "", unknown);
        if (unknown.isEmpty()) {
            return Optional.empty();
        }
        String apiVersion = object.path("apiVersion").asText();
        String kind = object.path("kind").asText();
        return Optional.of(kind + " in version \"" + apiVersion.substring(apiVersion.indexOf('/') + 1) + "\" cannot be handled as a " + kind
                + ": strict decoding error: " + String.join(", ", unknown.stream().map(field -> "unknown field \"" + field + "\"").toList()));
    }

    private static void walk(JsonNode node, FieldSchema schema, String prefix, List<String> unknown) {
        if (node instanceof ObjectNode object) {
            boolean closed = schema.declaresProperties() && !schema.allowsAnyField();
            object.properties().forEach(field -> {
                String path = prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey();
                if (closed && !schema.declares(field.getKey())) {
                    unknown.add(path);
                } else {
                    walk(field.getValue(), schema.field(field.getKey()), path, unknown);
                }
            });
        } else if (node instanceof ArrayNode list) {
            for (int index = 0; index < list.size(); index++) {
                walk(list.get(index), schema.items(), prefix + "[" + index + "]", unknown);
            }
        }
    }
}
