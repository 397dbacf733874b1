package dev.muster.runtime.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * JSON merge patch as RFC 7386 defines it: objects merge key by key, {@code null} removes a key, and
 * anything else, lists included, replaces. The CRUD mock merges with Jackson's updating reader, which
 * appends to lists and keeps nulls, so a PodGroup status written twice would carry its conditions
 * twice. The embedded module's {@code MergePatch} applies the same rules, but engine-core and embedded
 * are independent modules (only cli depends on both), so engine-core's test server has its own.
 */
final class JsonMergePatch {
    private JsonMergePatch() {}

    /** The target with the patch applied; neither argument is changed. */
    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode merged = target.isObject() ? ((ObjectNode) target).deepCopy() : JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            if (field.getValue().isNull()) {
                merged.remove(field.getKey());
            } else {
                merged.set(field.getKey(), apply(merged.path(field.getKey()), field.getValue()));
            }
        }
        return merged;
    }
}
