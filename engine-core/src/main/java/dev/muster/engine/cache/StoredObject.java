package dev.muster.engine.cache;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An object's identity and status as the informer last reported it.
 *
 * @param apiVersion e.g. {@code scheduling.volcano.sh/v1beta1}, which tells the PodGroup flavours apart
 * @param uid {@code metadata.uid}, empty when unset
 * @param resourceVersion {@code metadata.resourceVersion}, empty when unset
 * @param status a copy of {@code status}, an empty object when unset
 */
public record StoredObject(String apiVersion, String uid, String resourceVersion, ObjectNode status) {
    public StoredObject {
        requireNonNull(apiVersion, "apiVersion is null");
        requireNonNull(uid, "uid is null");
        requireNonNull(resourceVersion, "resourceVersion is null");
        status = requireNonNull(status, "status is null").deepCopy();
    }

    static StoredObject of(String apiVersion, ObjectNode object) {
        JsonNode status = object.path("status");
        JsonNode metadata = object.path("metadata");
        return new StoredObject(
                apiVersion,
                metadata.path("uid").asText(""),
                metadata.path("resourceVersion").asText(""),
                status.isObject() ? (ObjectNode) status : JsonNodeFactory.instance.objectNode());
    }

    /** A copy of the status: the record's own is not to be changed. */
    @Override
    public ObjectNode status() {
        return status.deepCopy();
    }
}
