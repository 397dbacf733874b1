package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fields one write changed, as structured-merge-diff's comparison of the object before and after
 * finds them for an {@code Update} manager: {@code changed} holds every leaf added or given another
 * value and every map, list or list item that was absent before; {@code removed} every leaf, map, list
 * or item that is gone. An atomic map or list, or an empty one on both sides, is a leaf. A subtree equal
 * on both sides is skipped whole, so a write costs in proportion to what it changed (a status write,
 * one condition), not to the object.
 *
 * @param changed the paths added or modified, in {@link FieldSet}'s element form
 * @param removed the paths removed
 */
record FieldChanges(Set<ImmutableList<String>> changed, Set<ImmutableList<String>> removed) {
    FieldChanges {
        requireNonNull(changed, "changed is null");
        requireNonNull(removed, "removed is null");
    }

    /** What changed from {@code before} (null: nothing, as for a create) to {@code after}, under {@code schema}. */
    static FieldChanges between(JsonNode before, JsonNode after, FieldSchema schema) {
        FieldChanges changes = new FieldChanges(new LinkedHashSet<>(), new LinkedHashSet<>());
        changes.compare(before, after, schema, new ArrayList<>());
        return changes;
    }

    /** {@code lhs} or {@code rhs} is null when the field is absent; a JSON null is present, as in Go's unstructured form. */
    private void compare(JsonNode lhs, JsonNode rhs, FieldSchema schema, List<String> path) {
        if (lhs != null && lhs.equals(rhs)) {
            return;
        }
        boolean leaf;
        if (isMapLike(lhs) && isMapLike(rhs) && (lhs instanceof ObjectNode || rhs instanceof ObjectNode)) {
            Map<String, JsonNode> left = fields(lhs);
            Map<String, JsonNode> right = fields(rhs);
            leaf = schema.atomicMap() || (left.isEmpty() && right.isEmpty());
            if (!leaf) {
                for (Map.Entry<String, JsonNode> field : left.entrySet()) {
                    compare(field.getValue(), right.get(field.getKey()), schema.field(field.getKey()), FieldSet.append(path, "f:" + field.getKey()));
                }
                for (Map.Entry<String, JsonNode> field : right.entrySet()) {
                    if (!left.containsKey(field.getKey())) {
                        compare(null, field.getValue(), schema.field(field.getKey()), FieldSet.append(path, "f:" + field.getKey()));
                    }
                }
            }
        } else if (isListLike(lhs) && isListLike(rhs) && (lhs instanceof ArrayNode || rhs instanceof ArrayNode)) {
            Map<String, JsonNode> left = items(lhs, schema);
            Map<String, JsonNode> right = items(rhs, schema);
            leaf = schema.listType().equals("atomic") || (left.isEmpty() && right.isEmpty());
            if (!leaf) {
                for (Map.Entry<String, JsonNode> item : right.entrySet()) {
                    compare(left.get(item.getKey()), item.getValue(), schema.items(), FieldSet.append(path, item.getKey()));
                }
                for (Map.Entry<String, JsonNode> item : left.entrySet()) {
                    if (!right.containsKey(item.getKey())) {
                        compare(item.getValue(), null, schema.items(), FieldSet.append(path, item.getKey()));
                    }
                }
            }
        } else {
            leaf = true;
        }
        if (path.isEmpty()) {
            return;
        }
        if (lhs == null) {
            changed.add(ImmutableList.copyOf(path));
        } else if (rhs == null) {
            removed.add(ImmutableList.copyOf(path));
        } else if (leaf) {
            changed.add(ImmutableList.copyOf(path));
        }
    }

    private static boolean isMapLike(JsonNode node) {
        return node == null || node.isNull() || node instanceof ObjectNode;
    }

    private static boolean isListLike(JsonNode node) {
        return node == null || node.isNull() || node instanceof ArrayNode;
    }

    private static Map<String, JsonNode> fields(JsonNode node) {
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                fields.put(field.getKey(), field.getValue());
            }
        }
        return fields;
    }

    /** A list's items by their path element; a repeated element counts once, the first, as structured-merge-diff counts it. */
    private static Map<String, JsonNode> items(JsonNode node, FieldSchema schema) {
        Map<String, JsonNode> items = new LinkedHashMap<>();
        if (node instanceof ArrayNode list && !schema.listType().equals("atomic")) {
            for (JsonNode item : list) {
                items.putIfAbsent(FieldSet.itemElement(item, schema), item);
            }
        } else if (node instanceof ArrayNode list) {
            for (int index = 0; index < list.size(); index++) {
                items.put("i:" + index, list.get(index));
            }
        }
        return items;
    }
}
