package dev.muster.runtime.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Map;

/** Creates objects from YAML in a test API server, Volcano's custom resources and the other PodGroups included. */
public final class ClusterObjects {
    private static final Map<String, ResourceDefinitionContext> CUSTOM = Map.of(
            "scheduling.volcano.sh/v1beta1 PodGroup", context("scheduling.volcano.sh", "v1beta1", "PodGroup", "podgroups", true),
            "scheduling.volcano.sh/v1beta1 Queue", context("scheduling.volcano.sh", "v1beta1", "Queue", "queues", false),
            "scheduling.x-k8s.io/v1alpha1 PodGroup", context("scheduling.x-k8s.io", "v1alpha1", "PodGroup", "podgroups", true),
            "scheduling.k8s.io/v1alpha2 PodGroup", context("scheduling.k8s.io", "v1alpha2", "PodGroup", "podgroups", true),
            "topology.volcano.sh/v1alpha1 HyperNode", context("topology.volcano.sh", "v1alpha1", "HyperNode", "hypernodes", false));

    private ClusterObjects() {}

    /**
     * Creates every object of a multi-document YAML text, namespaced ones in {@code default} unless they
     * say otherwise. A status the API server dropped on create (kube-apiserver starts every pod
     * {@code Pending}, and a custom resource with a status subresource without one) is written after
     * it through the status subresource, as the kubelet or a controller would have written it.
     */
    public static void create(KubernetesClient client, String yaml) {
        for (String document : yaml.split("(?m)^---\\s*$")) {
            if (document.isBlank()) {
                continue;
            }
            HasMetadata object = client.getKubernetesSerialization().unmarshal(document);
            JsonNode status = tree(client, object).path("status");
            if (object instanceof GenericKubernetesResource resource) {
                ResourceDefinitionContext context = CUSTOM.get(resource.getApiVersion() + " " + resource.getKind());
                if (context == null) {
                    throw new IllegalArgumentException("no context for " + resource.getApiVersion() + " " + resource.getKind());
                }
                String namespace = resource.getMetadata().getNamespace();
                NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> objects =
                        context.isNamespaceScoped()
                                ? client.genericKubernetesResources(context).inNamespace(namespace == null ? "default" : namespace)
                                : client.genericKubernetesResources(context);
                GenericKubernetesResource created = objects.resource(resource).create();
                if (dropped(status, tree(client, created).path("status"))) {
                    objects.withName(created.getMetadata().getName()).subresource("status")
                            .patch(PatchContext.of(PatchType.JSON_MERGE), statusPatch(status));
                }
            } else {
                HasMetadata created = client.resource(object).create();
                if (dropped(status, tree(client, created).path("status"))) {
                    client.resource(created).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), statusPatch(status));
                }
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

    /** Whether a field of the status the YAML gave is not as the API server stored it. */
    private static boolean dropped(JsonNode given, JsonNode stored) {
        if (!given.isObject()) {
            return false;
        }
        for (Map.Entry<String, JsonNode> field : given.properties()) {
            if (!field.getValue().equals(stored.path(field.getKey()))) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode tree(KubernetesClient client, Object object) {
        return client.getKubernetesSerialization().convertValue(object, JsonNode.class);
    }

    private static String statusPatch(JsonNode status) {
        return JsonNodeFactory.instance.objectNode().set("status", status).toString();
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
