package dev.muster.runtime.informers;

import dev.muster.engine.cache.ResourceKind;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/** How the client addresses the resources Muster reads and writes, for {@code genericKubernetesResources}. */
public final class KubernetesResources {
    /** {@code scheduling.volcano.sh/v1beta1} PodGroups, whose status Muster writes. */
    public static final ResourceDefinitionContext VOLCANO_POD_GROUPS = context(ResourceKind.VOLCANO_POD_GROUP);
    /** {@code scheduling.volcano.sh/v1beta1} Queues, whose status Muster writes. */
    public static final ResourceDefinitionContext QUEUES = context(ResourceKind.QUEUE);
    /** {@code scheduling.k8s.io/v1} PriorityClasses, cluster-scoped. */
    public static final ResourceDefinitionContext PRIORITY_CLASSES = context(ResourceKind.PRIORITY_CLASS);

    private KubernetesResources() {}

    static ResourceDefinitionContext context(ResourceKind kind) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(kind.group())
                .withVersion(kind.version())
                .withKind(kind.kind())
                .withPlural(kind.plural())
                .withNamespaced(kind.namespaced())
                .build();
    }
}
