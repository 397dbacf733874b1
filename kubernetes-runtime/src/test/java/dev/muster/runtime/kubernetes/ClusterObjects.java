package dev.muster.runtime.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Map;

/** Creates objects from YAML in a test API server, Volcano's custom resources included. */
public final class ClusterObjects {
    private static final Map<String, ResourceDefinitionContext> CUSTOM = Map.of(
            "scheduling.volcano.sh/v1beta1 PodGroup", context("scheduling.volcano.sh", "v1beta1", "PodGroup", "podgroups", true),
            "scheduling.volcano.sh/v1beta1 Queue", context("scheduling.volcano.sh", "v1beta1", "Queue", "queues", false),
            "scheduling.x-k8s.io/v1alpha1 PodGroup", context("scheduling.x-k8s.io", "v1alpha1", "PodGroup", "podgroups", true),
            "topology.volcano.sh/v1alpha1 HyperNode", context("topology.volcano.sh", "v1alpha1", "HyperNode", "hypernodes", false));

    private ClusterObjects() {}

    /** Creates every object of a multi-document YAML text, namespaced ones in {@code default} unless they say otherwise. */
    public static void create(KubernetesClient client, String yaml) {
        for (String document : yaml.split("(?m)^---\\s*$")) {
            if (document.isBlank()) {
                continue;
            }
            HasMetadata object = client.getKubernetesSerialization().unmarshal(document);
            if (object instanceof GenericKubernetesResource resource) {
                ResourceDefinitionContext context = CUSTOM.get(resource.getApiVersion() + " " + resource.getKind());
                if (context == null) {
                    throw new IllegalArgumentException("no context for " + resource.getApiVersion() + " " + resource.getKind());
                }
                String namespace = resource.getMetadata().getNamespace();
                if (context.isNamespaceScoped()) {
                    client.genericKubernetesResources(context).inNamespace(namespace == null ? "default" : namespace)
                            .resource(resource).create();
                } else {
                    client.genericKubernetesResources(context).resource(resource).create();
                }
            } else {
                client.resource(object).create();
            }
        }
    }

    /** A Volcano PodGroup or Queue as stored, or null. */
    public static GenericKubernetesResource get(KubernetesClient client, String apiVersionKind, String namespace, String name) {
        ResourceDefinitionContext context = CUSTOM.get(apiVersionKind);
        return context.isNamespaceScoped()
                ? client.genericKubernetesResources(context).inNamespace(namespace).withName(name).get()
                : client.genericKubernetesResources(context).withName(name).get();
    }

    /** Every stored object of a custom kind. */
    public static List<GenericKubernetesResource> list(KubernetesClient client, String apiVersionKind) {
        ResourceDefinitionContext context = CUSTOM.get(apiVersionKind);
        return context.isNamespaceScoped()
                ? client.genericKubernetesResources(context).inAnyNamespace().list().getItems()
                : client.genericKubernetesResources(context).list().getItems();
    }

    private static ResourceDefinitionContext context(String group, String version, String kind, String plural, boolean namespaced) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(version)
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(namespaced)
                .build();
    }
}
