package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The discovery documents kubectl reads before it does anything ({@code /version}, {@code /api},
 * {@code /apis}, {@code /api/v1}, {@code /apis/GROUP/VERSION}), which the CRUD mock does not serve.
 * They list what the embedded server stores: the core kinds, Volcano's custom resources and the
 * kinds {@code deploy/} applies (CRDs, RBAC, a Deployment, a PodDisruptionBudget), so {@code kubectl apply -f deploy/} works,
 * scheduler-plugins' PodGroup ({@code scheduling.x-k8s.io}), which the scheduler watches,
 * and what Volcano's job plugins make (Services, NetworkPolicies, ConfigMaps, Secrets).
 */
@ThreadSafe
final class Discovery {
    /**
     * What {@code /version} reports, and the simulated kubelets with it: the release of kube-apiserver
     * whose API the embedded server follows (its OpenAPI documents and side-by-side tests are of
     * v1.34.4), marked as Muster's by semver build metadata, which no version comparison orders by.
     */
    private static final int MINOR = 34;
    static final String GIT_VERSION = "v1." + MINOR + ".4+muster";
    static final ImmutableList<ApiResource> RESOURCES = ImmutableList.of(
            ApiResource.core("pods", "Pod", true, "po"),
            ApiResource.core("pods/status", "Pod", true),
            ApiResource.core("pods/log", "Pod", true),
            ApiResource.core("pods/binding", "Binding", true),
            ApiResource.core("pods/eviction", "Eviction", true),
            ApiResource.core("bindings", "Binding", true),
            ApiResource.core("nodes", "Node", false, "no"),
            ApiResource.core("nodes/status", "Node", false),
            ApiResource.core("namespaces", "Namespace", false, "ns"),
            ApiResource.core("events", "Event", true, "ev"),
            ApiResource.core("configmaps", "ConfigMap", true, "cm"),
            ApiResource.core("secrets", "Secret", true),
            ApiResource.core("services", "Service", true, "svc"),
            ApiResource.core("serviceaccounts", "ServiceAccount", true, "sa"),
            // what kube-scheduler v1.34 lists and watches at start (it waits for each informer's first list)
            ApiResource.core("persistentvolumeclaims", "PersistentVolumeClaim", true, "pvc"),
            ApiResource.core("persistentvolumes", "PersistentVolume", false, "pv"),
            ApiResource.core("replicationcontrollers", "ReplicationController", true, "rc"),
            ApiResource.of("apps/v1", "replicasets", "ReplicaSet", true, "rs"),
            ApiResource.of("apps/v1", "replicasets/status", "ReplicaSet", true),
            ApiResource.of("apps/v1", "replicasets/scale", "Scale", true),
            ApiResource.of("apps/v1", "statefulsets", "StatefulSet", true, "sts"),
            ApiResource.of("apps/v1", "statefulsets/status", "StatefulSet", true),
            ApiResource.of("apps/v1", "statefulsets/scale", "Scale", true),
            ApiResource.of("storage.k8s.io/v1", "storageclasses", "StorageClass", false, "sc"),
            ApiResource.of("storage.k8s.io/v1", "csinodes", "CSINode", false),
            ApiResource.of("storage.k8s.io/v1", "csidrivers", "CSIDriver", false),
            ApiResource.of("storage.k8s.io/v1", "csistoragecapacities", "CSIStorageCapacity", true),
            ApiResource.of("storage.k8s.io/v1", "volumeattachments", "VolumeAttachment", false),
            ApiResource.of("resource.k8s.io/v1", "deviceclasses", "DeviceClass", false),
            ApiResource.of("resource.k8s.io/v1", "resourceclaims", "ResourceClaim", true),
            ApiResource.of("resource.k8s.io/v1", "resourceslices", "ResourceSlice", false),
            ApiResource.of("scheduling.volcano.sh/v1beta1", "podgroups", "PodGroup", true, "pg", "podgroup-v1beta1"),
            ApiResource.of("scheduling.volcano.sh/v1beta1", "queues", "Queue", false, "q", "queue-v1beta1"),
            // scheduler-plugins' PodGroup, which the scheduler reads beside Volcano's (no short names: "pg" is Volcano's)
            ApiResource.of("scheduling.x-k8s.io/v1alpha1", "podgroups", "PodGroup", true),
            ApiResource.of("scheduling.x-k8s.io/v1alpha1", "podgroups/status", "PodGroup", true),
            ApiResource.of("scheduling.volcano.sh/v1beta1", "queues/status", "Queue", false),
            ApiResource.of("batch.volcano.sh/v1alpha1", "jobs", "Job", true, "vcjob", "vj"),
            ApiResource.of("batch.volcano.sh/v1alpha1", "jobs/status", "Job", true),
            ApiResource.of("flow.volcano.sh/v1alpha1", "jobflows", "JobFlow", true, "jf"),
            ApiResource.of("flow.volcano.sh/v1alpha1", "jobflows/status", "JobFlow", true),
            ApiResource.of("flow.volcano.sh/v1alpha1", "jobtemplates", "JobTemplate", true, "jt"),
            ApiResource.of("flow.volcano.sh/v1alpha1", "jobtemplates/status", "JobTemplate", true),
            ApiResource.of("bus.volcano.sh/v1alpha1", "commands", "Command", true),
            ApiResource.of("topology.volcano.sh/v1alpha1", "hypernodes", "HyperNode", false, "hn"),
            ApiResource.of("topology.volcano.sh/v1alpha1", "hypernodes/status", "HyperNode", false),
            ApiResource.of("scheduling.k8s.io/v1", "priorityclasses", "PriorityClass", false, "pc"),
            // what webhook certificate rotators (the training operator's cert-controller) watch and patch with their CA
            ApiResource.of("admissionregistration.k8s.io/v1", "validatingwebhookconfigurations", "ValidatingWebhookConfiguration", false),
            ApiResource.of("admissionregistration.k8s.io/v1", "mutatingwebhookconfigurations", "MutatingWebhookConfiguration", false),
            ApiResource.of("coordination.k8s.io/v1", "leases", "Lease", true),
            ApiResource.of("events.k8s.io/v1", "events", "Event", true, "ev"),
            ApiResource.of("apps/v1", "deployments", "Deployment", true, "deploy"),
            ApiResource.of("apps/v1", "deployments/status", "Deployment", true),
            ApiResource.of("apps/v1", "deployments/scale", "Scale", true),
            ApiResource.of("batch/v1", "jobs", "Job", true),
            ApiResource.of("batch/v1", "jobs/status", "Job", true),
            ApiResource.of("batch/v1", "cronjobs", "CronJob", true, "cj"),
            ApiResource.of("batch/v1", "cronjobs/status", "CronJob", true),
            ApiResource.of("policy/v1", "poddisruptionbudgets", "PodDisruptionBudget", true, "pdb"),
            ApiResource.of("networking.k8s.io/v1", "networkpolicies", "NetworkPolicy", true, "netpol"),
            ApiResource.of("apiextensions.k8s.io/v1", "customresourcedefinitions", "CustomResourceDefinition", false, "crd", "crds"),
            ApiResource.of("rbac.authorization.k8s.io/v1", "clusterroles", "ClusterRole", false),
            ApiResource.of("rbac.authorization.k8s.io/v1", "clusterrolebindings", "ClusterRoleBinding", false),
            ApiResource.of("rbac.authorization.k8s.io/v1", "roles", "Role", true),
            ApiResource.of("rbac.authorization.k8s.io/v1", "rolebindings", "RoleBinding", true));

    private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    private final ObjectMapper json;
    /** The built-in resources, then each registered CRD's, in registration order. */
    @GuardedBy("this")
    private final Map<String, ApiResource> resources = new LinkedHashMap<>();
    /** Rebuilt whole when a CRD is registered, so a reader never sees half of a change. */
    private volatile ImmutableMap<String, String> documents;

    Discovery(ObjectMapper json) {
        this.json = json;
        synchronized (this) {
            RESOURCES.forEach(resource -> resources.put(resource.groupVersion() + "|" + resource.plural(), resource));
            this.documents = documents(json, ImmutableList.copyOf(resources.values()));
        }
    }

    /**
     * Lists a created CRD's resources (and its status subresource) for every version it serves, as
     * kube-apiserver's discovery does once a CRD is established, so kubectl finds custom resources
     * that installed modules contribute.
     */
    synchronized void register(JsonNode crd) {
        String group = crd.path("spec").path("group").asText();
        JsonNode names = crd.path("spec").path("names");
        String plural = names.path("plural").asText();
        String kind = names.path("kind").asText();
        boolean namespaced = crd.path("spec").path("scope").asText().equals("Namespaced");
        List<String> shortNames = new ArrayList<>();
        names.path("shortNames").forEach(shortName -> shortNames.add(shortName.asText()));
        for (JsonNode version : crd.path("spec").path("versions")) {
            if (!version.path("served").asBoolean(true)) {
                continue;
            }
            String name = version.path("name").asText();
            resources.put(group + "/" + name + "|" + plural,
                    new ApiResource(group, name, plural, kind, namespaced, ImmutableList.copyOf(shortNames)));
            if (version.path("subresources").has("status")) {
                resources.put(group + "/" + name + "|" + plural + "/status",
                        new ApiResource(group, name, plural + "/status", kind, namespaced, ImmutableList.of()));
            }
        }
        documents = documents(json, ImmutableList.copyOf(resources.values()));
    }

    private static ImmutableMap<String, String> documents(ObjectMapper json, List<ApiResource> served) {
        ImmutableMap.Builder<String, String> builder = ImmutableMap.builder();
        builder.put("/version", json.createObjectNode()
                .put("major", "1")
                .put("minor", String.valueOf(MINOR))
                // since v1.32 kube-apiserver also says which version it emulates and the oldest it is compatible with
                .put("emulationMajor", "1")
                .put("emulationMinor", String.valueOf(MINOR))
                .put("minCompatibilityMajor", "1")
                .put("minCompatibilityMinor", String.valueOf(MINOR - 1))
                .put("gitVersion", GIT_VERSION)
                // not a build of Kubernetes' sources: no commit, and the build date an unstamped kube-apiserver reports
                .put("gitCommit", "")
                .put("gitTreeState", "clean")
                .put("buildDate", "1970-01-01T00:00:00Z")
                .put("goVersion", "")
                .put("compiler", "javac")
                .put("platform", "linux/amd64")
                .toString());
        ObjectNode api = json.createObjectNode().put("kind", "APIVersions");
        api.putArray("versions").add("v1");
        api.putArray("serverAddressByClientCIDRs").addObject().put("clientCIDR", "0.0.0.0/0").put("serverAddress", "127.0.0.1");
        builder.put("/api", api.toString());

        Map<String, List<ApiResource>> byGroupVersion = new TreeMap<>(GroupOrder.API_SERVICES);
        served.forEach(resource -> byGroupVersion.computeIfAbsent(resource.groupVersion(), key -> new ArrayList<>()).add(resource));
        // each group once, where its first group version falls, with its versions in priority order
        Map<String, List<String>> versionsByGroup = new LinkedHashMap<>();
        byGroupVersion.forEach((groupVersion, resources) -> {
            ApiResource first = resources.get(0);
            if (!first.group().isEmpty()) {
                versionsByGroup.computeIfAbsent(first.group(), key -> new ArrayList<>()).add(first.version());
            }
            builder.put(first.group().isEmpty() ? "/api/v1" : "/apis/" + groupVersion, resourceList(json, groupVersion, resources));
        });
        ObjectNode groups = json.createObjectNode().put("kind", "APIGroupList").put("apiVersion", "v1");
        ArrayNode groupList = groups.putArray("groups");
        versionsByGroup.forEach((name, versions) -> {
            versions.sort(GroupOrder.VERSIONS);
            ObjectNode group = groupList.addObject().put("name", name);
            ArrayNode listed = group.putArray("versions");
            versions.forEach(version -> listed.addObject().put("groupVersion", name + "/" + version).put("version", version));
            group.set("preferredVersion", listed.get(0).deepCopy());
        });
        builder.put("/apis", groups.toString());
        return builder.buildOrThrow();
    }

    /** The document at this path (without its query), if it is one of discovery's. */
    Optional<String> document(String path) {
        return Optional.ofNullable(documents.get(path));
    }

    private static String resourceList(ObjectMapper json, String groupVersion, List<ApiResource> resources) {
        ObjectNode list = json.createObjectNode().put("kind", "APIResourceList").put("apiVersion", "v1").put("groupVersion", groupVersion);
        ArrayNode items = list.putArray("resources");
        for (ApiResource resource : resources) {
            ObjectNode item = items.addObject()
                    .put("name", resource.plural())
                    .put("singularName", resource.subresource() ? "" : resource.kind().toLowerCase(java.util.Locale.ROOT))
                    .put("namespaced", resource.namespaced())
                    .put("kind", resource.kind());
            ArrayNode verbs = item.putArray("verbs");
            boolean scale = resource.plural().endsWith("/scale");
            if (scale) {
                // kube-apiserver's scale subresources are autoscaling/v1 Scales, which client-go's scale client reads here
                item.put("group", "autoscaling").put("version", "v1");
            }
            if (resource.subresource()) {
                verbs.add(resource.plural().endsWith("/status") || resource.plural().endsWith("/log") || scale ? "get" : "create");
                if (resource.plural().endsWith("/status") || scale) {
                    verbs.add("patch").add("update");
                }
            } else {
                VERBS.forEach(verbs::add);
            }
            if (!resource.shortNames().isEmpty()) {
                ArrayNode shortNames = item.putArray("shortNames");
                resource.shortNames().forEach(shortNames::add);
            }
        }
        return list.toString();
    }
}
