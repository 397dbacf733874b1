package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code scale} subresource of apps/v1 Deployments, ReplicaSets and StatefulSets, as kube-apiserver
 * v1.34.4 serves it ({@code pkg/registry/apps/deployment/storage/storage.go}, {@code scaleFromDeployment}
 * and the like): an {@code autoscaling/v1 Scale} whose metadata is the workload's name, namespace, uid,
 * resource version and creation time, whose spec is its {@code spec.replicas} and whose status is its
 * {@code status.replicas} and its selector as text. Writing a Scale sets the workload's
 * {@code spec.replicas}, refused with a conflict when the Scale names an older resource version.
 * {@code kubectl scale} and the horizontal pod autoscaler write it.
 */
final class Scales {
    static final String API_VERSION = "autoscaling/v1";
    private static final Pattern PATH = Pattern.compile("^/apis/apps/v1/namespaces/([^/]+)/(deployments|replicasets|statefulsets)/([^/]+)/scale$");
    private static final String REPLICAS = "replicas";
    private static final String METADATA = "metadata";

    private Scales() {}

    /** The workload's path, when {@code bare} (a path without its query) is a scale subresource's. */
    static Optional<ResourcePath> workload(String bare) {
        Matcher matcher = PATH.matcher(bare);
        return matcher.matches() ? Optional.of(new ResourcePath("apps", "v1", matcher.group(1), matcher.group(2), matcher.group(3), ""))
                : Optional.empty();
    }

    /** The path of the workload itself, as the store keys it. */
    static String objectPath(ResourcePath workload) {
        return "/apis/apps/v1/namespaces/" + workload.namespace() + "/" + workload.plural() + "/" + workload.name();
    }

    /** The Scale of a stored workload. */
    static ObjectNode of(JsonNode workload) {
        ObjectNode scale = JsonNodeFactory.instance.objectNode().put("kind", "Scale").put("apiVersion", API_VERSION);
        ObjectNode metadata = scale.putObject(METADATA);
        for (String field : new String[] {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
            if (workload.path(METADATA).hasNonNull(field)) {
                metadata.set(field, workload.path(METADATA).get(field));
            }
        }
        ObjectNode spec = scale.putObject("spec");
        int replicas = workload.path("spec").path(REPLICAS).asInt(0);
        if (replicas != 0) {
            spec.put(REPLICAS, replicas);
        }
        ObjectNode status = scale.putObject("status").put(REPLICAS, workload.path("status").path(REPLICAS).asInt(0));
        String selector = WorkloadColumns.selector(workload.path("spec").path("selector"));
        if (!selector.equals(WorkloadColumns.NONE)) {
            status.put("selector", selector);
        }
        return scale;
    }

    /**
     * kube-apiserver's refusal of a Scale written to the workload {@code name}: replicas that are not a
     * number, or negative ({@code ValidateScale}); empty when it takes it.
     */
    static Optional<MockResponse> refusal(JsonNode scale, String name) {
        JsonNode replicas = scale.path("spec").path(REPLICAS);
        if (!replicas.isMissingNode() && !replicas.isNull() && !replicas.canConvertToInt()) {
            return Optional.of(Statuses.badRequest("Scale in version \"v1\" cannot be handled as a Scale: spec.replicas: " + replicas
                    + " is not an integer"));
        }
        if (replicas.asInt(0) < 0) {
            return Optional.of(Statuses.invalidField("Scale", "autoscaling", name, "spec.replicas", "FieldValueInvalid",
                    List.of("Invalid value: " + replicas.asInt() + ": must be greater than or equal to 0")));
        }
        return Optional.empty();
    }

    /** Whether the Scale names a resource version other than the workload's, which kube-apiserver refuses. */
    static boolean stale(JsonNode scale, JsonNode workload) {
        String version = scale.path(METADATA).path("resourceVersion").asText("");
        return !version.isEmpty() && !version.equals(workload.path(METADATA).path("resourceVersion").asText(""));
    }

    /** The workload with the Scale's replicas in its spec; the stored tree is not changed. */
    static ObjectNode scaled(JsonNode workload, JsonNode scale) {
        ObjectNode updated = workload.deepCopy();
        updated.withObjectProperty("spec").put(REPLICAS, scale.path("spec").path(REPLICAS).asInt(0));
        return updated;
    }
}
