package dev.muster.jobs.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * The JSON merge patch (RFC 7386) that turns one object into another: changed values, and a null
 * for every field that is gone. Needed because a status written without its zero counts (Volcano's
 * {@code omitempty}) must also remove the counts the stored status still has.
 */
final class MergePatchDiff {
    private MergePatchDiff() {}

    static ObjectNode between(JsonNode before, ObjectNode after) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        if (before != null && before.isObject()) {
            before.fieldNames().forEachRemaining(field -> {
                if (!after.has(field)) {
                    patch.putNull(field);
                }
            });
        }
        for (Map.Entry<String, JsonNode> entry : after.properties()) {
            JsonNode old = before == null ? null : before.get(entry.getKey());
            JsonNode now = entry.getValue();
            if (now.equals(old)) {
                continue;
            }
            if (now.isObject() && old != null && old.isObject()) {
                patch.set(entry.getKey(), between(old, (ObjectNode) now));
            } else {
                patch.set(entry.getKey(), now);
            }
        }
        return patch;
    }
}
