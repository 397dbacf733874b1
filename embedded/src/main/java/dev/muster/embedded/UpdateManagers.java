package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code Update} entries of {@code metadata.managedFields} that kube-apiserver's field manager
 * records for a create, update or patch (k8s.io/apimachinery {@code managedfields}): the writer's entry
 * (one per manager, API version and subresource) gains the fields the write changed ({@link
 * FieldChanges}) and takes the time; every other entry, an applier's too, loses the fields the write
 * changed or removed; an entry left with no field goes. Not recorded: the type, name, namespace and
 * the other fields the server sets ({@code stripmeta.go}), the status in a write of the object whose
 * status is a subresource, and anything but the status in a write of {@code /status}. An object that
 * exists without managed fields stays without, as kube-apiserver tracks only from the create.
 */
final class UpdateManagers {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** kube-apiserver's order of the entries: by operation, then time (in seconds), manager, API version and subresource. */
    private static final Comparator<JsonNode> ORDER = Comparator.<JsonNode, String>comparing(entry -> entry.path("operation").asText(""))
            .thenComparing(entry -> entry.path("time").asText(""))
            .thenComparing(entry -> entry.path("manager").asText(""))
            .thenComparing(entry -> entry.path("apiVersion").asText(""))
            .thenComparing(entry -> entry.path("subresource").asText(""));

    private static final String METADATA = "metadata";
    private static final String MANAGED_FIELDS = "managedFields";
    private static final String STATUS = "status";
    private static final Set<ImmutableList<String>> STRIPPED = ImmutableSet.of(ImmutableList.of("f:apiVersion"), ImmutableList.of("f:kind"),
            ImmutableList.of("f:metadata"), meta("name"), meta("namespace"), meta("creationTimestamp"), meta("selfLink"), meta("uid"),
            meta("clusterName"), meta("generation"), meta(MANAGED_FIELDS), meta("resourceVersion"));
    private static final String TEMPLATE = "{\"metadata\":{\"creationTimestamp\":null},\"spec\":{\"containers\":null}}";
    /** The zero value of a built-in kind, as Go's encoding of a new object holds it: the maps and lists a create finds there. */
    private static final Map<String, String> ZERO_VALUES = ImmutableMap.<String, String>builder()
            .put("v1|Pod", "{\"spec\":{\"containers\":null}}")
            .put("v1|PodTemplate", "{\"template\":" + TEMPLATE + "}")
            .put("v1|ReplicationController", "{\"spec\":{}}")
            .put("v1|Service", "{\"spec\":{},\"status\":{\"loadBalancer\":{}}}")
            .put("apps/v1|Deployment", "{\"spec\":{\"selector\":null,\"template\":" + TEMPLATE + ",\"strategy\":{}}}")
            .put("apps/v1|ReplicaSet", "{\"spec\":{\"selector\":null,\"template\":" + TEMPLATE + "}}")
            .put("apps/v1|StatefulSet", "{\"spec\":{\"selector\":null,\"template\":" + TEMPLATE + ",\"updateStrategy\":{}}}")
            .put("apps/v1|DaemonSet", "{\"spec\":{\"selector\":null,\"template\":" + TEMPLATE + ",\"updateStrategy\":{}}}")
            .put("batch/v1|Job", "{\"spec\":{\"template\":" + TEMPLATE + "}}")
            .put("batch/v1|CronJob", "{\"spec\":{\"schedule\":\"\",\"jobTemplate\":{\"metadata\":{\"creationTimestamp\":null},\"spec\":{\"template\":"
                    + TEMPLATE + "}}}}")
            .buildOrThrow();

    private UpdateManagers() {}

    /** Who writes: the manager (the {@code fieldManager} parameter, else from the User-Agent), the subresource, the time. */
    record Writer(String manager, String subresource, String time) {
        Writer {
            requireNonNull(manager, "manager is null");
            requireNonNull(subresource, "subresource is null");
            requireNonNull(time, "time is null");
        }
    }

    /**
     * Sets {@code after}'s managed fields for {@code writer}'s write of it over {@code before} (null for a create).
     *
     * @param builtIn whether the kind is a built-in one, whose new object is Go's zero value of its type
     * @param statusIgnored whether a write of the object leaves its status as it was (the status is a subresource)
     */
    static void record(JsonNode before, ObjectNode after, FieldSchema schema, Writer writer, boolean builtIn, boolean statusIgnored) {
        if (!(after.get(METADATA) instanceof ObjectNode metadata)) {
            return;
        }
        boolean status = writer.subresource().equals(STATUS);
        JsonNode sent = metadata.get(MANAGED_FIELDS);
        List<JsonNode> entries = new ArrayList<>();
        JsonNode base = status || !(sent instanceof ArrayNode given) || given.isEmpty() ? null : given;
        boolean reset = !status && sent instanceof ArrayNode given && (given.isEmpty() || (given.size() == 1 && given.get(0).isEmpty()));
        if (!reset) {
            (base == null && before != null ? before.path(METADATA).path(MANAGED_FIELDS) : base == null ? JSON.createArrayNode() : base)
                    .forEach(entries::add);
        }
        if (before != null && entries.isEmpty()) {
            // kube-apiserver does not start tracking an object that has none
            metadata.remove(MANAGED_FIELDS);
            return;
        }
        FieldChanges changes = status
                ? FieldChanges.between(only(before, STATUS), only(after, STATUS), schema)
                : FieldChanges.between(withoutManagedFields(before == null ? zeroValue(after, builtIn) : before), withoutManagedFields(after), schema);
        String apiVersion = after.path("apiVersion").asText();
        List<ObjectNode> kept = new ArrayList<>();
        ObjectNode previous = null;
        for (JsonNode entry : entries) {
            if (!(entry instanceof ObjectNode existing)) {
                continue;
            }
            ObjectNode reduced = without(existing, changes);
            if (reduced == null) {
                continue;
            }
            if (isWritersEntry(reduced, writer, apiVersion)) {
                previous = reduced;
            } else {
                kept.add(reduced);
            }
        }
        FieldSet owned = new FieldSet(changes.changed().stream()
                .filter(path -> !STRIPPED.contains(path))
                .filter(path -> status ? path.get(0).equals("f:status") : !(statusIgnored && path.get(0).equals("f:status")))
                .collect(ImmutableSet.toImmutableSet()));
        if (!owned.isEmpty()) {
            FieldSet fields = previous == null ? owned : FieldSet.fromFieldsV1(previous.path("fieldsV1")).union(owned);
            ObjectNode entry = JsonNodeFactory.instance.objectNode();
            if (!writer.manager().isEmpty()) {
                entry.put("manager", writer.manager());
            }
            entry.put("operation", "Update").put("apiVersion", apiVersion).put("time", writer.time()).put("fieldsType", "FieldsV1");
            entry.set("fieldsV1", fields.toFieldsV1());
            if (!writer.subresource().isEmpty()) {
                entry.put("subresource", writer.subresource());
            }
            kept.add(entry);
        } else if (previous != null) {
            kept.add(previous);
        }
        kept.sort(ORDER);
        ArrayNode written = JsonNodeFactory.instance.arrayNode();
        kept.forEach(written::add);
        metadata.set(MANAGED_FIELDS, written);
    }

    /** The manager's name from a request: the {@code fieldManager} parameter, else the User-Agent up to its first slash, printable, at most 128 bytes. */
    static String manager(String fieldManager, String userAgent) {
        if (!fieldManager.isEmpty()) {
            return fieldManager;
        }
        String prefix = userAgent.split("/", -1)[0];
        StringBuilder manager = new StringBuilder();
        int bytes = 0;
        for (int offset = 0; offset < prefix.length(); ) {
            int codePoint = prefix.codePointAt(offset);
            offset += Character.charCount(codePoint);
            if (!isPrintable(codePoint)) {
                continue;
            }
            int length = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + length > 128) {
                break;
            }
            bytes += length;
            manager.appendCodePoint(codePoint);
        }
        return manager.toString();
    }

    /** Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII space. */
    private static boolean isPrintable(int codePoint) {
        if (codePoint == ' ') {
            return true;
        }
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED,
                    Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> false;
            default -> true;
        };
    }

    /** The entry without the fields the write changed or removed; null when nothing is left of it. */
    private static ObjectNode without(ObjectNode entry, FieldChanges changes) {
        JsonNode fields = entry.path("fieldsV1");
        boolean touched = false;
        for (List<String> path : changes.changed()) {
            touched = touched || owns(fields, path);
        }
        for (List<String> path : changes.removed()) {
            touched = touched || owns(fields, path);
        }
        if (!touched) {
            return entry;
        }
        FieldSet set = FieldSet.fromFieldsV1(fields);
        FieldSet left = new FieldSet(set.paths().stream()
                .filter(path -> !changes.changed().contains(path) && !changes.removed().contains(path))
                .collect(ImmutableSet.toImmutableSet()));
        if (left.isEmpty()) {
            return null;
        }
        ObjectNode reduced = entry.deepCopy();
        reduced.set("fieldsV1", left.toFieldsV1());
        return reduced;
    }

    /** Whether a {@code fieldsV1} tree owns the path: its node is there, empty or marked {@code "."}. */
    static boolean owns(JsonNode fields, List<String> path) {
        JsonNode node = fields;
        for (String element : path) {
            node = node.get(element);
            if (node == null) {
                return false;
            }
        }
        return node.isEmpty() || node.has(".");
    }

    private static boolean isWritersEntry(JsonNode entry, Writer writer, String apiVersion) {
        return entry.path("operation").asText("").equals("Update") && entry.path("manager").asText("").equals(writer.manager())
                && entry.path("apiVersion").asText("").equals(apiVersion) && entry.path("subresource").asText("").equals(writer.subresource());
    }

    /** The object's one top-level field, as an object of its own (no copy); null when absent and {@code object} is. */
    private static JsonNode only(JsonNode object, String field) {
        ObjectNode part = JsonNodeFactory.instance.objectNode();
        if (object != null && object.get(field) != null) {
            part.set(field, object.get(field));
        }
        return part;
    }

    /** A shallow copy without {@code metadata.managedFields}, which the comparison leaves out. */
    private static JsonNode withoutManagedFields(JsonNode object) {
        if (!(object instanceof ObjectNode fields) || !(fields.get(METADATA) instanceof ObjectNode metadata) || !metadata.has(MANAGED_FIELDS)) {
            return object;
        }
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        copy.setAll(fields);
        ObjectNode metadataCopy = copy.putObject(METADATA);
        metadataCopy.setAll(metadata);
        metadataCopy.remove(MANAGED_FIELDS);
        return copy;
    }

    /** The object a create starts from: Go's zero value of a built-in kind, or a custom resource's type alone. */
    private static JsonNode zeroValue(ObjectNode created, boolean builtIn) {
        String apiVersion = created.path("apiVersion").asText();
        String kind = created.path("kind").asText();
        if (!builtIn) {
            return JsonNodeFactory.instance.objectNode().put("apiVersion", apiVersion).put("kind", kind);
        }
        try {
            ObjectNode zero = (ObjectNode) JSON.readTree(ZERO_VALUES.getOrDefault(apiVersion + "|" + kind, "{}"));
            zero.put("apiVersion", apiVersion).put("kind", kind).putObject(METADATA).putNull("creationTimestamp");
            if (created.has("spec") && !zero.has("spec")) {
                zero.putObject("spec");
            }
            if (created.has(STATUS) && !zero.has(STATUS)) {
                zero.putObject(STATUS);
            }
            return zero;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ImmutableList<String> meta(String field) {
        return ImmutableList.of("f:metadata", "f:" + field);
    }
}
