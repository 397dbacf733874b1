package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A set of field paths as server-side apply records them in {@code metadata.managedFields}
 * ({@code fieldsV1}, sigs.k8s.io/structured-merge-diff's format): a path is a list of elements,
 * {@code f:NAME} for a field, {@code k:{"name":"a"}} for the item of a {@code map} list with those
 * keys, {@code v:VALUE} for an item of a {@code set} list. In {@code fieldsV1} a path that is owned
 * and has owned children carries {@code ".": {}}.
 *
 * @param paths each path a list of elements, in the order they were found
 */
record FieldSet(ImmutableSet<ImmutableList<String>> paths) {
    static final FieldSet EMPTY = new FieldSet(ImmutableSet.of());
    private static final String SELF = ".";
    private static final ObjectMapper JSON = new ObjectMapper();

    FieldSet {
        requireNonNull(paths, "paths is null");
    }

    /** The fields an applied configuration sets: every leaf, every item of a keyed or set list, every empty map. */
    static FieldSet of(JsonNode object, FieldSchema schema) {
        Set<ImmutableList<String>> paths = new LinkedHashSet<>();
        walk(object, schema, new ArrayList<>(), paths);
        return new FieldSet(ImmutableSet.copyOf(paths));
    }

    /** The set that a managed-fields entry's fields object holds. */
    static FieldSet fromFieldsV1(JsonNode fields) {
        Set<ImmutableList<String>> paths = new LinkedHashSet<>();
        read(fields, new ArrayList<>(), paths);
        return new FieldSet(ImmutableSet.copyOf(paths));
    }

    /** The {@code fieldsV1} object of this set. */
    ObjectNode toFieldsV1() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        for (List<String> path : paths) {
            ObjectNode node = root;
            for (String element : path) {
                node = node.get(element) instanceof ObjectNode child ? child : node.putObject(element);
            }
            node.put(SELF, "");
        }
        normalize(root);
        return root;
    }

    FieldSet minus(FieldSet other) {
        return new FieldSet(paths.stream().filter(path -> !other.paths.contains(path)).collect(ImmutableSet.toImmutableSet()));
    }

    FieldSet intersect(FieldSet other) {
        return new FieldSet(paths.stream().filter(other.paths::contains).collect(ImmutableSet.toImmutableSet()));
    }

    FieldSet union(FieldSet other) {
        return new FieldSet(ImmutableSet.<ImmutableList<String>>builder().addAll(paths).addAll(other.paths).build());
    }

    boolean isEmpty() {
        return paths.isEmpty();
    }

    /** Whether a path of this set is {@code prefix} or lies below it. */
    boolean hasPathUnder(List<String> prefix) {
        for (List<String> path : paths) {
            if (path.size() >= prefix.size() && path.subList(0, prefix.size()).equals(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** A path as kube-apiserver's conflict messages print it: {@code .spec.containers[name="a"].image}. */
    static String printed(List<String> path) {
        StringBuilder printed = new StringBuilder();
        for (String element : path) {
            String body = element.substring(2);
            if (element.startsWith("f:")) {
                printed.append('.').append(body);
            } else if (element.startsWith("k:")) {
                printed.append('[');
                JsonNode keys = parse(body);
                List<String> parts = new ArrayList<>();
                keys.properties().forEach(key -> parts.add(key.getKey() + "=" + key.getValue()));
                printed.append(String.join(",", parts)).append(']');
            } else {
                printed.append('[').append(body).append(']');
            }
        }
        return printed.toString();
    }

    /** The element of a {@code map} list's item: its key fields, sorted by name, as compact JSON. */
    static String keyElement(JsonNode item, List<String> keys) {
        Map<String, JsonNode> sorted = new TreeMap<>();
        for (String key : keys) {
            if (item.has(key)) {
                sorted.put(key, item.get(key));
            }
        }
        ObjectNode element = JsonNodeFactory.instance.objectNode();
        sorted.forEach(element::set);
        return "k:" + element;
    }

    /** The JSON of a {@code k:} or {@code v:} element's body. */
    static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a path element: " + text, e);
        }
    }

    private static void walk(JsonNode node, FieldSchema schema, List<String> prefix, Set<ImmutableList<String>> paths) {
        if (node instanceof ObjectNode object && !schema.atomicMap() && !object.isEmpty()) {
            object.properties().forEach(field -> {
                if (!field.getValue().isNull()) {
                    walk(field.getValue(), schema.field(field.getKey()), append(prefix, "f:" + field.getKey()), paths);
                }
            });
        } else if (node instanceof ArrayNode list && !schema.listType().equals("atomic")) {
            boolean keyed = schema.listType().equals("map");
            for (JsonNode item : list) {
                List<String> itemPath = append(prefix, itemElement(item, schema));
                paths.add(ImmutableList.copyOf(itemPath));
                if (keyed && item instanceof ObjectNode fields) {
                    fields.properties().forEach(field -> walk(field.getValue(), schema.items().field(field.getKey()),
                            append(itemPath, "f:" + field.getKey()), paths));
                }
            }
        } else if (!prefix.isEmpty()) {
            paths.add(ImmutableList.copyOf(prefix));
        }
    }

    private static void read(JsonNode node, List<String> prefix, Set<ImmutableList<String>> paths) {
        if (node.isEmpty() || node.has(SELF)) {
            if (!prefix.isEmpty()) {
                paths.add(ImmutableList.copyOf(prefix));
            }
        }
        node.properties().forEach(child -> {
            if (!child.getKey().equals(SELF)) {
                read(child.getValue(), append(prefix, child.getKey()), paths);
            }
        });
    }

    /** A path with no owned children is written {@code {}}, one with children keeps {@code ".": {}}. */
    private static void normalize(ObjectNode node) {
        boolean self = node.has(SELF);
        node.remove(SELF);
        // sorted by element, as structured-merge-diff writes them
        Map<String, JsonNode> children = new TreeMap<>();
        node.properties().forEach(child -> children.put(child.getKey(), child.getValue()));
        children.values().forEach(child -> normalize((ObjectNode) child));
        node.removeAll();
        if (self && !children.isEmpty()) {
            node.putObject(SELF);
        }
        children.forEach(node::set);
    }

    /** The path element of an item of a list that is not atomic: its keys' ({@code k:}) in a map list, its value ({@code v:}) in a set. */
    static String itemElement(JsonNode item, FieldSchema schema) {
        return schema.listType().equals("map") ? keyElement(item, schema.listMapKeys()) : "v:" + item;
    }

    static List<String> append(List<String> prefix, String element) {
        List<String> path = new ArrayList<>(prefix.size() + 1);
        path.addAll(prefix);
        path.add(element);
        return path;
    }
}
