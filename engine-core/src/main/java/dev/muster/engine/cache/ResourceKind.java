package dev.muster.engine.cache;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/** The kinds of Kubernetes object the reader understands, by apiVersion and kind. */
enum ResourceKind {
    PRIORITY_CLASS("scheduling.k8s.io/v1", "PriorityClass", false),
    NODE("v1", "Node", false),
    QUEUE("scheduling.volcano.sh/v1beta1", "Queue", false),
    HYPER_NODE("topology.volcano.sh/v1alpha1", "HyperNode", false),
    VOLCANO_POD_GROUP("scheduling.volcano.sh/v1beta1", "PodGroup", true),
    COSCHEDULING_POD_GROUP("scheduling.x-k8s.io/v1alpha1", "PodGroup", true),
    POD("v1", "Pod", true);

    private final String apiVersion;
    private final String kind;
    private final boolean namespaced;

    ResourceKind(String apiVersion, String kind, boolean namespaced) {
        this.apiVersion = apiVersion;
        this.kind = kind;
        this.namespaced = namespaced;
    }

    String apiVersion() {
        return apiVersion;
    }

    /** The kind as written in manifests; both PodGroup flavours share it, and so share names. */
    String kind() {
        return kind;
    }

    boolean namespaced() {
        return namespaced;
    }

    static Optional<ResourceKind> find(String apiVersion, String kind) {
        return Arrays.stream(values())
                .filter(value -> value.apiVersion.equals(apiVersion) && value.kind.equals(kind))
                .findFirst();
    }

    /** The apiVersions known for a kind, e.g. for PodGroup both Volcano's and scheduler-plugins'. */
    static String apiVersionsOf(String kind) {
        return Arrays.stream(values())
                .filter(value -> value.kind.equals(kind))
                .map(ResourceKind::apiVersion)
                .collect(Collectors.joining(", "));
    }
}
