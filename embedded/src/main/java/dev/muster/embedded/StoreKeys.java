package dev.muster.embedded;

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
}
