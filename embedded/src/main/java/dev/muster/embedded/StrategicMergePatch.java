package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Strategic merge patch as k8s.io/apimachinery's {@code strategicpatch} applies it to a built-in
 * type: maps merge key by key ({@code null} removes one), a list whose schema says
 * {@code x-kubernetes-patch-strategy: merge} merges its items by {@code x-kubernetes-patch-merge-key}
 * (a list of primitives by value), and any other list is replaced. The directives: {@code $patch:
 * replace} and {@code $patch: delete} on a map or a list item, {@code $retainKeys},
 * {@code $setElementOrder/FIELD} and {@code $deleteFromPrimitiveList/FIELD}. The patch strategies
 * and merge keys come from the real OpenAPI document ({@link TypeSchemas}), not from a table of ours.
 */
final class StrategicMergePatch {
    private static final String PATCH = "$patch";
    private static final String RETAIN_KEYS = "$retainKeys";
    private static final String SET_ELEMENT_ORDER = "$setElementOrder/";
    private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";

    private StrategicMergePatch() {}

    /**
     * A patch that cannot be applied. kube-apiserver answers a body that is not a map 400 BadRequest, and a
     * list item without its merge key 500 with no reason (as v1.34.4 does).
     */
    static final class InvalidPatchException extends RuntimeException {
        private static final long serialVersionUID = 1;

        InvalidPatchException(String message) {
            super(message);
        }
    }

    /** The original with the patch applied; neither argument is changed. */
    static ObjectNode apply(JsonNode original, JsonNode patch, FieldSchema schema) {
        if (!patch.isObject()) {
            throw new InvalidPatchException("json: cannot unmarshal " + patch.getNodeType().toString().toLowerCase(Locale.ROOT)
                    + " into Go value of type map[string]interface {}");
        }
        JsonNode merged = mergeMap(original.isObject() ? (ObjectNode) original.deepCopy() : JsonNodeFactory.instance.objectNode(),
                (ObjectNode) patch, schema);
        return merged.isObject() ? (ObjectNode) merged : JsonNodeFactory.instance.objectNode();
    }

    private static JsonNode mergeMap(ObjectNode original, ObjectNode patch, FieldSchema schema) {
        JsonNode directive = patch.get(PATCH);
        if (directive != null) {
            switch (directive.asText()) {
                case "replace" -> {
                    ObjectNode replaced = patch.deepCopy();
                    replaced.remove(PATCH);
                    return mergeMap(JsonNodeFactory.instance.objectNode(), replaced, schema);
                }
                case "delete" -> {
                    return JsonNodeFactory.instance.objectNode();
                }
                default -> throw new InvalidPatchException("Unknown patch type: " + directive.asText() + " in map: " + patch);
            }
        }
        if (patch.get(RETAIN_KEYS) instanceof ArrayNode retained) {
            Set<String> keep = new HashSet<>();
            retained.forEach(key -> keep.add(key.asText()));
            original.retain(keep);
        }
        for (Map.Entry<String, JsonNode> entry : patch.properties()) {
            String key = entry.getKey();
            JsonNode value = entry.getValue();
            if (key.startsWith(SET_ELEMENT_ORDER) && !patch.has(key.substring(SET_ELEMENT_ORDER.length()))
                    && original.get(key.substring(SET_ELEMENT_ORDER.length())) instanceof ArrayNode list) {
                // an order alone reorders the list as it is
                String field = key.substring(SET_ELEMENT_ORDER.length());
                original.set(field, mergeList(list, JsonNodeFactory.instance.arrayNode(), schema.field(field), value));
            } else if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
                deleteFromPrimitiveList(original, key.substring(DELETE_FROM_PRIMITIVE_LIST.length()), value);
            } else if (key.startsWith("$")) {
                // the other directives ($patch, $retainKeys, $setElementOrder with its list) are read above or by the list's merge
                original.remove(key);
            } else if (value.isNull() || value.path(PATCH).asText("").equals("delete")) {
                original.remove(key);
            } else {
                original.set(key, merge(original.get(key), value, schema.field(key), patch.get(SET_ELEMENT_ORDER + key)));
            }
        }
        return original;
    }

    private static JsonNode merge(JsonNode original, JsonNode patch, FieldSchema schema) {
        return merge(original, patch, schema, null);
    }

    private static JsonNode merge(JsonNode original, JsonNode patch, FieldSchema schema, JsonNode order) {
        if (patch instanceof ObjectNode patchMap) {
            ObjectNode base = original instanceof ObjectNode map && !schema.hasPatchStrategy("replace")
                    ? map : JsonNodeFactory.instance.objectNode();
            return mergeMap(base, patchMap, schema);
        }
        if (patch instanceof ArrayNode patchList) {
            ArrayNode base = original instanceof ArrayNode list && schema.hasPatchStrategy("merge")
                    ? list : JsonNodeFactory.instance.arrayNode();
            return mergeList(base, patchList, schema, order);
        }
        return patch.deepCopy();
    }

    /**
     * Merges a list as apimachinery's {@code mergeSlice} and {@code normalizeElementOrder} do: the items
     * the patch names (in {@code $setElementOrder}'s order when it is given, else the patch's) are
     * interleaved with the server's other items, which keep the order they had.
     */
    private static ArrayNode mergeList(ArrayNode original, ArrayNode patch, FieldSchema schema, JsonNode order) {
        String mergeKey = schema.patchMergeKey();
        FieldSchema items = schema.items();
        for (JsonNode item : patch) {
            if (item.path(PATCH).asText("").equals("replace")) {
                // the list is replaced by the patch's other items
                ArrayNode replaced = JsonNodeFactory.instance.arrayNode();
                patch.forEach(other -> {
                    if (!other.path(PATCH).asText("").equals("replace")) {
                        replaced.add(merge(null, other, items));
                    }
                });
                return replaced;
            }
        }
        List<JsonNode> serverOnly = new ArrayList<>();
        for (JsonNode item : original) {
            serverOnly.add(item.deepCopy());
        }
        List<JsonNode> patched = new ArrayList<>();
        for (JsonNode item : patch) {
            if (!(item instanceof ObjectNode patchItem) || mergeKey.isEmpty()) {
                int index = item.isObject() ? -1 : serverOnly.indexOf(item);
                patched.add(index >= 0 ? serverOnly.remove(index) : merge(null, item, items));
                continue;
            }
            JsonNode keyValue = patchItem.get(mergeKey);
            if (keyValue == null) {
                throw new InvalidPatchException("map: " + patchItem + " does not contain declared merge key: " + mergeKey);
            }
            int index = indexOf(serverOnly, mergeKey, keyValue);
            JsonNode existing = index >= 0 ? serverOnly.remove(index) : null;
            if (!patchItem.path(PATCH).asText("").equals("delete")) {
                patched.add(mergeMap(existing instanceof ObjectNode map ? map : JsonNodeFactory.instance.objectNode(), patchItem, items));
            }
        }
        if (order instanceof ArrayNode ordering) {
            List<JsonNode> all = new ArrayList<>(patched);
            all.addAll(serverOnly);
            patched = new ArrayList<>();
            for (JsonNode named : ordering) {
                JsonNode wanted = mergeKey.isEmpty() ? named : named.path(mergeKey);
                for (JsonNode item : all) {
                    if (!patched.contains(item) && (mergeKey.isEmpty() ? item.equals(wanted) : wanted.equals(item.get(mergeKey)))) {
                        patched.add(item);
                        break;
                    }
                }
            }
            serverOnly = new ArrayList<>(all);
            serverOnly.removeAll(patched);
        }
        return interleaved(serverOnly, patched, original, mergeKey);
    }

    /**
     * apimachinery's {@code mergeSortedSlice}: a server item goes before the next patch item when both are
     * in the original and it came first there; otherwise the patch item goes first.
     */
    private static ArrayNode interleaved(List<JsonNode> server, List<JsonNode> patched, ArrayNode original, String mergeKey) {
        ArrayNode result = JsonNodeFactory.instance.arrayNode();
        int left = 0;
        int right = 0;
        while (left < server.size() || right < patched.size()) {
            if (right >= patched.size()) {
                result.add(server.get(left++));
            } else if (left >= server.size()) {
                result.add(patched.get(right++));
            } else {
                int serverIndex = originalIndex(original, server.get(left), mergeKey);
                int patchIndex = originalIndex(original, patched.get(right), mergeKey);
                result.add(serverIndex >= 0 && patchIndex >= 0 && serverIndex < patchIndex ? server.get(left++) : patched.get(right++));
            }
        }
        return result;
    }

    private static int originalIndex(ArrayNode original, JsonNode item, String mergeKey) {
        for (int index = 0; index < original.size(); index++) {
            JsonNode candidate = original.get(index);
            if ((mergeKey.isEmpty() || !item.isObject()) ? candidate.equals(item) : item.path(mergeKey).equals(candidate.get(mergeKey))) {
                return index;
            }
        }
        return -1;
    }

    private static void deleteFromPrimitiveList(ObjectNode original, String field, JsonNode values) {
        if (original.get(field) instanceof ArrayNode list) {
            ArrayNode kept = JsonNodeFactory.instance.arrayNode();
            list.forEach(item -> {
                if (!contains(values, item)) {
                    kept.add(item);
                }
            });
            original.set(field, kept);
        }
    }

    private static int indexOf(List<JsonNode> list, String mergeKey, JsonNode keyValue) {
        for (int index = 0; index < list.size(); index++) {
            if (keyValue.equals(list.get(index).get(mergeKey))) {
                return index;
            }
        }
        return -1;
    }

    private static boolean contains(JsonNode list, JsonNode value) {
        for (JsonNode item : list) {
            if (item.equals(value)) {
                return true;
            }
        }
        return false;
    }
}
