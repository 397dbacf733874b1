package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.ArrayList;
import java.util.List;

/** An object's identity in the mock's store: its API, version, plural, namespace and name, the key of the dispatcher's index. */
final class StoreKeys {
    private static final String[] IDENTITY = {
        KubernetesAttributesExtractor.API,
        KubernetesAttributesExtractor.VERSION,
        KubernetesAttributesExtractor.PLURAL,
        KubernetesAttributesExtractor.NAMESPACE,
        KubernetesAttributesExtractor.NAME
    };

    private StoreKeys() {}

    /** Whether the query asks for nothing but an identity, as a create's check does, and no label or field. */
    static boolean identityOnly(AttributeSet query) {
        List<Attribute> identity = new ArrayList<>();
        for (String name : IDENTITY) {
            if (query.containsKey(name)) {
                identity.add(query.getAttribute(name));
            }
        }
        return new AttributeSet(identity).equals(query);
    }

    static String identity(AttributeSet attributes) {
        StringBuilder identity = new StringBuilder();
        for (String name : IDENTITY) {
            identity.append(attributes.getAttribute(name)).append('|');
        }
        return identity.toString();
    }

    /** Whether two states of an object are stored under the same key: the same identity and labels. */
    static boolean sameKey(JsonNode current, JsonNode updated) {
        JsonNode before = current.path("metadata");
        JsonNode after = updated.path("metadata");
        return current.path("apiVersion").equals(updated.path("apiVersion")) && current.path("kind").equals(updated.path("kind"))
                && before.path("name").equals(after.path("name")) && before.path("namespace").equals(after.path("namespace"))
                && before.path("labels").equals(after.path("labels"));
    }
}
