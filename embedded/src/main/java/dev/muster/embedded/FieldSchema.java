package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import java.util.function.Function;

/**
 * One node of a type's schema as kube-apiserver publishes it: an OpenAPI v2 definition of a built-in
 * type ({@code $ref}s resolved through the document's definitions) or a CRD's
 * {@code openAPIV3Schema}. It says how a patch or an apply treats the node's lists: the
 * {@code x-kubernetes-patch-strategy} and {@code x-kubernetes-patch-merge-key} that strategic merge
 * patch reads (the {@code patchStrategy}/{@code patchMergeKey} tags of k8s.io/api), and the
 * {@code x-kubernetes-list-type} and {@code x-kubernetes-list-map-keys} that server-side apply reads.
 * A node the schema does not describe is {@link #UNKNOWN}: its lists are atomic, as for both.
 */
final class FieldSchema {
    static final FieldSchema UNKNOWN = new FieldSchema(MissingNode.getInstance(), name -> MissingNode.getInstance(), null);

    private static final String REF_PREFIX = "#/definitions/";

    private final JsonNode node;
    private final Function<String, JsonNode> definitions;
    /** The schema that a CRD's {@code metadata} takes: ObjectMeta, as the API server applies it. */
    private final FieldSchema objectMeta;

    FieldSchema(JsonNode node, Function<String, JsonNode> definitions, FieldSchema objectMeta) {
        this.definitions = requireNonNull(definitions, "definitions is null");
        this.node = resolve(requireNonNull(node, "node is null"), definitions);
        this.objectMeta = objectMeta;
    }

    /** The schema of the named property, or of a map's values; {@link #UNKNOWN} if neither is described. */
    FieldSchema field(String name) {
        if (objectMeta != null && name.equals("metadata")) {
            return objectMeta;
        }
        JsonNode property = node.path("properties").path(name);
        if (property.isMissingNode() && node.path("additionalProperties").isObject()) {
            property = node.path("additionalProperties");
        }
        return property.isMissingNode() ? UNKNOWN : new FieldSchema(property, definitions, null);
    }

    /** Whether the schema names its object's properties (a struct), rather than describing any object. */
    boolean declaresProperties() {
        return node.path("properties").isObject() && !node.path("properties").isEmpty();
    }

    /** Whether a field the schema does not name is allowed: a map's values, or fields preserved as they come. */
    boolean allowsAnyField() {
        return node.path("additionalProperties").isObject() || node.path("additionalProperties").asBoolean(false)
                || node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    }

    /** Whether the schema names the property ({@code apiVersion}, {@code kind} and {@code metadata} of a CRD's kind are always named). */
    boolean declares(String name) {
        return node.path("properties").has(name) || objectMeta != null && (name.equals("metadata") || name.equals("apiVersion")
                || name.equals("kind"));
    }

    /** The schema of a list's items. */
    FieldSchema items() {
        JsonNode items = node.path("items");
        return items.isMissingNode() ? UNKNOWN : new FieldSchema(items, definitions, null);
    }

    /** {@code x-kubernetes-patch-merge-key}, empty when the list has none. */
    String patchMergeKey() {
        return node.path("x-kubernetes-patch-merge-key").asText("");
    }

    /** Whether {@code x-kubernetes-patch-strategy} (a comma-separated list) names the strategy. */
    boolean hasPatchStrategy(String strategy) {
        for (String named : Splitter.on(',').trimResults().split(node.path("x-kubernetes-patch-strategy").asText(""))) {
            if (named.equals(strategy)) {
                return true;
            }
        }
        return false;
    }

    /** {@code x-kubernetes-list-type}: {@code atomic} (the default), {@code set} or {@code map}. */
    String listType() {
        return node.path("x-kubernetes-list-type").asText("atomic");
    }

    /** {@code x-kubernetes-list-map-keys} of a {@code map} list. */
    ImmutableList<String> listMapKeys() {
        ImmutableList.Builder<String> keys = ImmutableList.builder();
        node.path("x-kubernetes-list-map-keys").forEach(key -> keys.add(key.asText()));
        return keys.build();
    }

    /** {@code x-kubernetes-map-type: atomic}: the object is replaced whole, never merged. */
    boolean atomicMap() {
        return node.path("x-kubernetes-map-type").asText("").equals("atomic");
    }

    private static JsonNode resolve(JsonNode node, Function<String, JsonNode> definitions) {
        JsonNode resolved = node;
        // a property that only points at a definition: v2's $ref, v3's allOf of one $ref
        for (int depth = 0; depth < 8; depth++) {
            String ref = resolved.path("$ref").asText(resolved.path("allOf").path(0).path("$ref").asText(""));
            if (!ref.startsWith(REF_PREFIX)) {
                return resolved;
            }
            JsonNode target = definitions.apply(ref.substring(REF_PREFIX.length()));
            resolved = target == null ? MissingNode.getInstance() : target;
        }
        return resolved;
    }
}
