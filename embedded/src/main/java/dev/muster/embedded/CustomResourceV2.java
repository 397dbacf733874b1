package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.Lists;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code /openapi/v2} definitions of one served version of a CRD, as kube-apiserver's CRD OpenAPI
 * builder makes them: {@code GROUP-REVERSED.VERSION.KIND} and its list kind, the schema converted to what
 * OpenAPI v2 can say (no {@code default}, no {@code allOf}/{@code anyOf}/{@code oneOf}/{@code not}; a
 * node that preserves unknown fields or is nullable loses its type, properties and items, and a nullable
 * property is not required; an array without items loses its type), {@code apiVersion}, {@code kind} and
 * {@code metadata} as TypeMeta and ObjectMeta describe them, and the group, version and kind.
 */
final class CustomResourceV2 {
    private static final String CONVENTIONS = "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md";
    private static final String API_VERSION = "APIVersion defines the versioned schema of this representation of an object. Servers should "
            + "convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: " + CONVENTIONS + "#resources";
    private static final String KIND = "Kind is a string value representing the REST resource this object represents. Servers may infer "
            + "this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: " + CONVENTIONS + "#types-kinds";
    private static final String META = "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.";
    private static final List<String> DROPPED = List.of("default", "allOf", "anyOf", "oneOf", "not", "nullable");
    private static final List<String> BOUNDS = List.of("minimum", "maximum", "multipleOf");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private CustomResourceV2() {}

    /** Puts the kind's and its list's definitions into {@code definitions}; {@code crd} holds the version's schema in {@code spec.schema}. */
    static void define(JsonNode crd, String version, ObjectNode definitions) {
        JsonNode spec = crd.path("spec");
        String group = spec.path("group").asText();
        String kind = spec.path("names").path("kind").asText();
        String listKind = spec.path("names").path("listKind").asText(kind + "List");
        String prefix = String.join(".", Lists.reverse(ImmutableList.copyOf(group.split("\\.", -1)))) + "." + version + ".";

        ObjectNode schema = spec.path("schema").path("openAPIV3Schema") instanceof ObjectNode given ? given.deepCopy() : NODES.objectNode();
        convert(schema);
        ObjectNode properties = schema.get("properties") instanceof ObjectNode existing ? existing : schema.putObject("properties");
        typeMeta(properties);
        properties.putObject("metadata").put("description", "Standard object's metadata. More info: " + CONVENTIONS + "#metadata")
                .put("$ref", META + "ObjectMeta");
        kinds(schema, group, kind, version);
        definitions.set(prefix + kind, schema);

        ObjectNode list = NODES.objectNode().put("description", listKind + " is a list of " + kind).put("type", "object");
        list.putArray("required").add("items");
        ObjectNode listProperties = list.putObject("properties");
        typeMeta(listProperties);
        ObjectNode items = listProperties.putObject("items")
                .put("description", "List of " + spec.path("names").path("plural").asText() + ". More info: " + CONVENTIONS).put("type", "array");
        items.putObject("items").put("$ref", "#/definitions/" + prefix + kind);
        listProperties.putObject("metadata").put("description", "Standard list metadata. More info: " + CONVENTIONS + "#types-kinds")
                .put("$ref", META + "ListMeta");
        kinds(list, group, listKind, version);
        definitions.set(prefix + listKind, list);
    }

    private static void typeMeta(ObjectNode properties) {
        properties.putObject("apiVersion").put("description", API_VERSION).put("type", "string");
        properties.putObject("kind").put("description", KIND).put("type", "string");
    }

    private static void kinds(ObjectNode schema, String group, String kind, String version) {
        schema.putArray("x-kubernetes-group-version-kind").addObject().put("group", group).put("kind", kind).put("version", version);
    }

    /** Converts one node, and those under it, in place. */
    private static void convert(ObjectNode schema) {
        boolean untyped = schema.path("nullable").asBoolean(false) || schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        schema.remove(DROPPED);
        if (untyped) {
            schema.remove(List.of("type", "properties", "items"));
        }
        if (schema.path("type").asText("").equals("array") && !schema.has("items")) {
            schema.remove("type");
        }
        for (String bound : BOUNDS) {
            // Go prints the float64 bounds of JSONSchemaProps without a fraction when they have none, as 0 rather than 0.0
            JsonNode number = schema.path(bound);
            if (number.isFloatingPointNumber() && number.doubleValue() == Math.rint(number.doubleValue()) && Math.abs(number.doubleValue()) < 1e21) {
                schema.put(bound, number.longValue());
            }
        }
        Set<String> nullable = new HashSet<>();
        if (schema.get("properties") instanceof ObjectNode properties) {
            properties.properties().forEach(property -> {
                if (property.getValue().path("nullable").asBoolean(false)) {
                    nullable.add(property.getKey());
                }
                if (property.getValue() instanceof ObjectNode child) {
                    convert(child);
                }
            });
        }
        if (schema.get("required") instanceof ArrayNode required && !nullable.isEmpty()) {
            ArrayNode kept = NODES.arrayNode();
            required.forEach(name -> {
                if (!nullable.contains(name.asText())) {
                    kept.add(name);
                }
            });
            schema.set("required", kept);
        }
        for (String nested : List.of("items", "additionalProperties")) {
            if (schema.get(nested) instanceof ObjectNode child) {
                convert(child);
            }
        }
    }
}
