package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Server-side apply ({@code application/apply-patch+yaml}) as kube-apiserver does it with
 * structured-merge-diff, as far as clients see it: the applied configuration is merged into the live
 * object (maps by key, {@code map} lists by their {@code x-kubernetes-list-map-keys}, {@code set}
 * lists by value, atomic lists and scalars replaced); the fields it sets become its manager's in
 * {@code metadata.managedFields} ({@code operation: Apply}); a field the manager set before and no
 * longer sets is removed, unless another manager owns it too; and a field another manager owns whose
 * value the apply would change is a conflict, unless the apply is forced, which takes the field over.
 */
final class ServerSideApply {
    private static final String METADATA = "metadata";
    private static final String MANAGED_FIELDS = "managedFields";
    private static final String STATUS = "status";
    /** The manager {@code kubectl apply --server-side} applies as, which takes over client-side apply's fields. */
    private static final String KUBECTL = "kubectl";
    private static final List<String> UNMANAGED_METADATA = List.of("name", "namespace", "uid", "resourceVersion", "generation",
            "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink", MANAGED_FIELDS);

    private ServerSideApply() {}

    /** One manager's entry of {@code metadata.managedFields}. */
    record Manager(String manager, String operation, String apiVersion, String time, String subresource, FieldSet fields) {
        Manager {
            requireNonNull(manager, "manager is null");
            requireNonNull(operation, "operation is null");
            requireNonNull(fields, "fields is null");
        }

        boolean isApply() {
            return operation.equals("Apply");
        }
    }

    /** What an apply may not take from another manager without {@code force}. */
    record Conflict(Manager owner, ImmutableList<String> path) {}

    /** The apply changes fields other managers own; kube-apiserver answers 409 Conflict with one cause each. */
    static final class ConflictException extends RuntimeException {
        private static final long serialVersionUID = 1;
        private final transient List<Conflict> conflicts;

        ConflictException(List<Conflict> conflicts) {
            super("Apply failed with " + conflicts.size() + " conflict" + (conflicts.size() == 1 ? "" : "s") + ": "
                    + String.join("\n", conflicts.stream().map(ConflictException::describe).toList()));
            this.conflicts = List.copyOf(conflicts);
        }

        List<Conflict> conflicts() {
            return conflicts;
        }

        static String describe(Conflict conflict) {
            return owner(conflict) + ": " + FieldSet.printed(conflict.path());
        }

        /** {@code conflict with "M"}, and {@code using API_VERSION} for a manager that updated rather than applied. */
        static String owner(Conflict conflict) {
            Manager owner = conflict.owner();
            return "conflict with \"" + owner.manager() + "\"" + (owner.isApply() ? "" : " using " + owner.apiVersion());
        }
    }

    /**
     * The object after {@code manager} applied {@code config} to {@code live} (null to create it), its
     * managed fields included. {@code subresource} is {@code status} for an apply to {@code /status}, else empty.
     *
     * @throws ConflictException when the apply is not forced and changes another manager's field
     */
    static ObjectNode apply(ObjectNode live, ObjectNode config, FieldSchema schema, String manager, boolean force, String subresource,
            String time) {
        ObjectNode applied = scoped(config, subresource);
        FieldSet fields = FieldSet.of(managedPart(applied), schema);
        ObjectNode base = live == null ? JsonNodeFactory.instance.objectNode() : live.deepCopy();
        List<Manager> managers = managers(base);
        Manager previous = null;
        List<Conflict> conflicts = new ArrayList<>();
        for (Manager other : managers) {
            if (other.manager().equals(manager) && other.isApply() && other.subresource().equals(subresource)) {
                previous = other;
                continue;
            }
            for (ImmutableList<String> path : other.fields().intersect(fields).paths()) {
                if (!sameValue(base, applied, path, schema)) {
                    conflicts.add(new Conflict(other, path));
                }
            }
        }
        if (!conflicts.isEmpty() && !force) {
            List<Conflict> refused = manager.equals(KUBECTL) ? LastApplied.refused(base, conflicts, schema, applied) : conflicts;
            if (!refused.isEmpty()) {
                throw new ConflictException(refused);
            }
        }
        FieldSet taken = new FieldSet(conflicts.stream().map(Conflict::path).collect(ImmutableSet.toImmutableSet()));
        List<Manager> updated = new ArrayList<>();
        boolean placed = false;
        for (Manager other : managers) {
            if (other.equals(previous)) {
                updated.add(new Manager(manager, "Apply", applied.path("apiVersion").asText(), time, subresource, fields));
                placed = true;
            } else if (!other.fields().minus(taken).isEmpty()) {
                updated.add(new Manager(other.manager(), other.operation(), other.apiVersion(), other.time(), other.subresource(),
                        other.fields().minus(taken)));
            }
        }
        if (!placed) {
            updated.add(new Manager(manager, "Apply", applied.path("apiVersion").asText(), time, subresource, fields));
        }
        ObjectNode merged = (ObjectNode) merge(base, applied, schema);
        if (previous != null) {
            List<ImmutableList<String>> removed = new ArrayList<>(previous.fields().minus(fields).paths());
            // an item before its fields: once the item is gone, its fields are too
            removed.sort(Comparator.comparingInt(List<String>::size));
            for (ImmutableList<String> path : removed) {
                // only another applier keeps a field this one stops applying; an updater's claim does not (structured-merge-diff's prune)
                if (updated.stream().noneMatch(other -> other.isApply() && other.fields().hasPathUnder(path))) {
                    remove(merged, path, schema);
                }
            }
        }
        if (live != null && withoutManagedFields(base).equals(withoutManagedFields(merged))) {
            // an apply that changes nothing of the object leaves its manager's time as it was (none for a new manager)
            String kept = previous == null ? "" : previous.time();
            updated.replaceAll(entry -> entry.isApply() && entry.manager().equals(manager) && entry.subresource().equals(subresource)
                    ? new Manager(manager, "Apply", entry.apiVersion(), kept, subresource, entry.fields()) : entry);
        }
        // kube-apiserver sorts the entries: by operation, then time (in seconds), manager, API version and subresource
        updated.sort(Comparator.comparing(Manager::operation).thenComparing(Manager::time).thenComparing(Manager::manager)
                .thenComparing(Manager::apiVersion).thenComparing(Manager::subresource));
        ObjectNode metadata = merged.get(METADATA) instanceof ObjectNode existing ? existing : merged.putObject(METADATA);
        metadata.set(MANAGED_FIELDS, write(updated));
        if (manager.equals(KUBECTL)) {
            LastApplied.update(base, merged, config);
        }
        return merged;
    }

    private static JsonNode withoutManagedFields(ObjectNode object) {
        ObjectNode copy = object.deepCopy();
        if (copy.get(METADATA) instanceof ObjectNode metadata) {
            metadata.remove(MANAGED_FIELDS);
        }
        return copy;
    }

    /** The managers an object's {@code metadata.managedFields} names. */
    static List<Manager> managers(JsonNode object) {
        List<Manager> managers = new ArrayList<>();
        for (JsonNode entry : object.path(METADATA).path(MANAGED_FIELDS)) {
            managers.add(new Manager(entry.path("manager").asText(""), entry.path("operation").asText(""), entry.path("apiVersion").asText(""),
                    entry.path("time").asText(""), entry.path("subresource").asText(""), FieldSet.fromFieldsV1(entry.path("fieldsV1"))));
        }
        return managers;
    }

    private static ArrayNode write(List<Manager> managers) {
        ArrayNode entries = JsonNodeFactory.instance.arrayNode();
        for (Manager manager : managers) {
            ObjectNode entry = entries.addObject().put("manager", manager.manager()).put("operation", manager.operation())
                    .put("apiVersion", manager.apiVersion());
            if (!manager.time().isEmpty()) {
                // an entry a client wrote without one (kubectl's upgrade of client-side apply's entry) keeps none
                entry.put("time", manager.time());
            }
            entry.put("fieldsType", "FieldsV1");
            entry.set("fieldsV1", manager.fields().toFieldsV1());
            if (!manager.subresource().isEmpty()) {
                entry.put("subresource", manager.subresource());
            }
        }
        return entries;
    }

    /** What of the configuration an apply writes: on the object, all but its status; on {@code /status}, the status. */
    private static ObjectNode scoped(ObjectNode config, String subresource) {
        ObjectNode applied = config.deepCopy();
        if (applied.get(METADATA) instanceof ObjectNode metadata) {
            metadata.remove(List.of(MANAGED_FIELDS, "resourceVersion", "uid", "creationTimestamp", "generation"));
        }
        if (subresource.equals(STATUS)) {
            applied.retain(List.of("apiVersion", "kind", METADATA, STATUS));
        } else {
            applied.remove(STATUS);
        }
        return applied;
    }

    /** The part whose fields a manager owns: not the type, name or namespace, which identify the object. */
    static ObjectNode managedPart(ObjectNode applied) {
        ObjectNode part = applied.deepCopy();
        part.remove(List.of("apiVersion", "kind"));
        if (part.get(METADATA) instanceof ObjectNode metadata) {
            metadata.remove(UNMANAGED_METADATA);
            if (metadata.isEmpty()) {
                part.remove(METADATA);
            }
        }
        return part;
    }

    static JsonNode merge(JsonNode live, JsonNode config, FieldSchema schema) {
        if (config instanceof ObjectNode configMap && live instanceof ObjectNode liveMap && !schema.atomicMap()) {
            ObjectNode merged = liveMap.deepCopy();
            for (Map.Entry<String, JsonNode> field : configMap.properties()) {
                if (!field.getValue().isNull()) {
                    merged.set(field.getKey(), merge(liveMap.get(field.getKey()), field.getValue(), schema.field(field.getKey())));
                }
            }
            return merged;
        }
        if (config instanceof ArrayNode configList && live instanceof ArrayNode liveList && !schema.listType().equals("atomic")) {
            ArrayNode merged = liveList.deepCopy();
            for (JsonNode item : configList) {
                int index = indexOf(merged, item, schema);
                if (index < 0) {
                    merged.add(item.deepCopy());
                } else if (schema.listType().equals("map")) {
                    merged.set(index, merge(merged.get(index), item, schema.items()));
                }
            }
            return merged;
        }
        return config.deepCopy();
    }

    /** Whether the field at the path holds the same in both; a list item or a map is the same when both have it. */
    static boolean sameValue(JsonNode live, JsonNode applied, List<String> path, FieldSchema schema) {
        JsonNode before = at(live, path, schema);
        JsonNode after = at(applied, path, schema);
        if (after != null && ((after.isObject() && !after.isEmpty()) || path.get(path.size() - 1).startsWith("k:"))) {
            return before != null;
        }
        return Objects.equals(before, after);
    }

    private static JsonNode at(JsonNode root, List<String> path, FieldSchema rootSchema) {
        JsonNode node = root;
        FieldSchema schema = rootSchema;
        for (String element : path) {
            if (node == null) {
                return null;
            }
            if (element.startsWith("f:")) {
                node = node.get(element.substring(2));
                schema = schema.field(element.substring(2));
            } else {
                int index = node instanceof ArrayNode list ? indexOf(list, element) : -1;
                node = index < 0 ? null : node.get(index);
                schema = schema.items();
            }
        }
        return node;
    }

    private static void remove(ObjectNode root, List<String> path, FieldSchema schema) {
        JsonNode parent = at(root, path.subList(0, path.size() - 1), schema);
        String last = path.get(path.size() - 1);
        if (parent instanceof ObjectNode map && last.startsWith("f:")) {
            map.remove(last.substring(2));
        } else if (parent instanceof ArrayNode list) {
            int index = indexOf(list, last);
            if (index >= 0) {
                list.remove(index);
            }
        }
    }

    private static int indexOf(ArrayNode list, JsonNode item, FieldSchema schema) {
        String element = schema.listType().equals("map") ? FieldSet.keyElement(item, schema.listMapKeys()) : "v:" + item;
        return indexOf(list, element);
    }

    /** The index of the item a {@code k:} or {@code v:} element names, or -1. */
    private static int indexOf(ArrayNode list, String element) {
        JsonNode wanted = FieldSet.parse(element.substring(2));
        for (int index = 0; index < list.size(); index++) {
            JsonNode item = list.get(index);
            if (element.startsWith("v:") ? item.equals(wanted) : matchesKeys(item, wanted)) {
                return index;
            }
        }
        return -1;
    }

    private static boolean matchesKeys(JsonNode item, JsonNode keys) {
        for (Map.Entry<String, JsonNode> key : keys.properties()) {
            if (!key.getValue().equals(item.get(key.getKey()))) {
                return false;
            }
        }
        return keys.size() > 0;
    }
}
