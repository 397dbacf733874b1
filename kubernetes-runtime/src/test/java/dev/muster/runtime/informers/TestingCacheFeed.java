package dev.muster.runtime.informers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.cache.ResourceKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Arrays;
import java.util.List;

/**
 * Feeds a {@link ClusterCache} by hand, kind by kind, as informers that finish at different times
 * would, so a test decides what the cache has seen and which kinds count as synced.
 */
public final class TestingCacheFeed {
    private TestingCacheFeed() {}

    /** Puts the objects the API server stores of one kind ({@code pods}, {@code podgroups}, ...), as an informer would. */
    public static void copy(KubernetesClient client, ClusterCache cache, String plural, String... names) {
        ResourceKind kind = kind(plural);
        List<String> only = Arrays.asList(names);
        List<GenericKubernetesResource> objects = kind.namespaced()
                ? client.genericKubernetesResources(KubernetesResources.context(kind)).inAnyNamespace().list().getItems()
                : client.genericKubernetesResources(KubernetesResources.context(kind)).list().getItems();
        for (GenericKubernetesResource object : objects) {
            if (only.isEmpty() || only.contains(object.getMetadata().getName())) {
                ObjectNode tree = client.getKubernetesSerialization().convertValue(object, ObjectNode.class);
                tree.put("apiVersion", kind.apiVersion());
                tree.put("kind", kind.kind());
                cache.put(kind, tree);
            }
        }
    }

    /** Marks every kind synced but those named. */
    public static void markSyncedExcept(ClusterCache cache, String... plurals) {
        List<String> except = Arrays.asList(plurals);
        for (ResourceKind kind : ResourceKind.values()) {
            if (!except.contains(kind.plural())) {
                cache.markSynced(kind);
            }
        }
    }

    /** The kind of this plural; for {@code podgroups}, Volcano's, the one tests create. */
    private static ResourceKind kind(String plural) {
        return Arrays.stream(ResourceKind.values())
                .filter(kind -> kind.plural().equals(plural))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no kind " + plural));
    }
}
