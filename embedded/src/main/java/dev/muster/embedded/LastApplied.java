package dev.muster.embedded;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How kube-apiserver's server-side apply by {@code kubectl} takes over from client-side apply
 * ({@code lastappliedmanager.go}, {@code lastappliedupdater.go}): a conflict on a field that the object's
 * {@code kubectl.kubernetes.io/last-applied-configuration} sets, to the value the object still holds,
 * is allowed, and the apply is forced when every conflict is; after the apply, an annotation that was
 * there holds the applied configuration.
 */
final class LastApplied {
    static final String ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper SORTED = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private LastApplied() {}

    /** The conflicts that the last applied configuration of {@code live} does not allow. */
    static List<ServerSideApply.Conflict> refused(JsonNode live, List<ServerSideApply.Conflict> conflicts, FieldSchema schema, ObjectNode applied) {
        String text = live.path("metadata").path("annotations").path(ANNOTATION).asText("");
        if (text.isEmpty()) {
            return conflicts;
        }
        JsonNode last;
        try {
            last = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return conflicts;
        }
        if (!(last instanceof ObjectNode lastObject) || !last.path("apiVersion").equals(applied.path("apiVersion"))) {
            return conflicts;
        }
        Set<ImmutableList<String>> set = FieldSet.of(ServerSideApply.managedPart(lastObject), schema).paths();
        return conflicts.stream()
                .filter(conflict -> !(set.contains(conflict.path()) && ServerSideApply.sameValue(live, lastObject, conflict.path(), schema)))
                .toList();
    }

    /** Puts the applied configuration in {@code merged}'s annotation when {@code live} had one. */
    static void update(JsonNode live, ObjectNode merged, ObjectNode config) {
        if (live.path("metadata").path("annotations").path(ANNOTATION).asText("").isEmpty()
                || !(merged.path("metadata").path("annotations") instanceof ObjectNode annotations)) {
            return;
        }
        ObjectNode last = config.deepCopy();
        if (last.path("metadata").path("annotations") instanceof ObjectNode own) {
            own.remove(ANNOTATION);
        }
        try {
            // Go's encoding of an unstructured object: map keys sorted, a newline after
            annotations.put(ANNOTATION, SORTED.writeValueAsString(SORTED.convertValue(last, Map.class)) + "\n");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the applied configuration does not print as JSON", e);
        }
    }
}
