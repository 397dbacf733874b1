package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * JSON merge patch as RFC 7386 defines it: objects merge key by key, {@code null} removes a key, and
 * anything else, lists included, replaces. (The CRUD mock merges with Jackson's updating reader, which
 * appends to lists and stores nulls, so a status written twice would carry its conditions twice.)
 */
final class MergePatch {
    private MergePatch() {}

    /** The target with the patch applied; neither argument is changed. */
    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target.isObject() ? ((ObjectNode) target).deepCopy() : JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            if (field.getValue().isNull()) {
                result.remove(field.getKey());
            } else {
                result.set(field.getKey(), apply(result.path(field.getKey()), field.getValue()));
            }
        }
        return result;
    }
}
