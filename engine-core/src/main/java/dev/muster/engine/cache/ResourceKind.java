package dev.muster.engine.cache;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/** The kinds of Kubernetes object the reader understands, by apiVersion and kind. */
public enum ResourceKind {
    PRIORITY_CLASS("scheduling.k8s.io/v1", "PriorityClass", "priorityclasses", false),
    NODE("v1", "Node", "nodes", false),
    QUEUE("scheduling.volcano.sh/v1beta1", "Queue", "queues", false),
    HYPER_NODE("topology.volcano.sh/v1alpha1", "HyperNode", "hypernodes", false),
    VOLCANO_POD_GROUP("scheduling.volcano.sh/v1beta1", "PodGroup", "podgroups", true),
    COSCHEDULING_POD_GROUP("scheduling.x-k8s.io/v1alpha1", "PodGroup", "podgroups", true),
    /** kube-scheduler's Workload API PodGroup; read after the other two, so of two of one name theirs is kept. */
    WORKLOAD_POD_GROUP("scheduling.k8s.io/v1alpha2", "PodGroup", "podgroups", true),
    POD("v1", "Pod", "pods", true);

    private final String apiVersion;
    private final String kind;
    private final String plural;
    private final boolean namespaced;

    ResourceKind(String apiVersion, String kind, String plural, boolean namespaced) {
        this.apiVersion = apiVersion;
        this.kind = kind;
        this.plural = plural;
        this.namespaced = namespaced;
    }

    /** The API group, empty for the core group. */
    public String group() {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    public String version() {
        return apiVersion.substring(apiVersion.indexOf('/') + 1);
    }

    /** The resource name in REST paths, e.g. {@code podgroups}. */
    public String plural() {
        return plural;
    }

    public String apiVersion() {
        return apiVersion;
    }

    /** The kind as written in manifests; the three PodGroup flavours share it, and so share names. */
    public String kind() {
        return kind;
    }

    public boolean namespaced() {
        return namespaced;
    }

    /** Whether objects of this kind are PodGroups, whichever API they are of: each becomes a job. */
    public boolean podGroup() {
        return this == VOLCANO_POD_GROUP || this == COSCHEDULING_POD_GROUP || this == WORKLOAD_POD_GROUP;
    }

    static Optional<ResourceKind> find(String apiVersion, String kind) {
        return Arrays.stream(values())
                .filter(value -> value.apiVersion.equals(apiVersion) && value.kind.equals(kind))
                .findFirst();
    }

    /** The apiVersions known for a kind, e.g. for PodGroup Volcano's, scheduler-plugins' and Kubernetes'. */
    static String apiVersionsOf(String kind) {
        return Arrays.stream(values())
                .filter(value -> value.kind.equals(kind))
                .map(ResourceKind::apiVersion)
                .collect(Collectors.joining(", "));
    }
}
