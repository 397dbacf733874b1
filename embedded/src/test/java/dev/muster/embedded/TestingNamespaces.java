package dev.muster.embedded;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Creates the namespaces a test's objects live in: the server refuses a namespaced object whose namespace does not exist. */
final class TestingNamespaces {
    private TestingNamespaces() {}

    static void create(KubernetesClient client, String... names) {
        for (String name : names) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        }
    }
}
