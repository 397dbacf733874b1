package dev.muster.engine.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.cache.QuantityFields.ResourceList;
import dev.muster.engine.model.Resources;
import java.util.TreeMap;

/**
 * A pod's requests, as Volcano computes them ({@code GetPodResourceWithoutInitContainers} and
 * {@code GetPodResourceRequest}): the request is the sum of the containers, the restartable init
 * containers (sidecars, which run as long as the pod) and {@code spec.overhead}; the init request is,
 * per dimension, the larger of the request and each init container (plus the sidecars started before it).
 */
final class PodResources {
    private PodResources() {}

    record Requests(Resources request, Resources initRequest) {}

    static Requests read(FieldReader reader) {
        Resources containers = Resources.EMPTY;
        ImmutableList<JsonNode> regular = reader.array("spec.containers");
        if (regular.isEmpty() && (FieldReader.absent(reader.at("spec.containers")) || reader.at("spec.containers").isArray())) {
            // kube-apiserver: "spec.containers: Required value"; no running cluster holds such a pod
            reader.error("spec.containers", "is required: a pod has at least one container");
        }
        for (int index = 0; index < regular.size(); index++) {
            containers = containers.add(containerRequest(reader, regular.get(index), "spec.containers[" + index + "]"));
        }
        Resources sidecars = Resources.EMPTY;
        Resources largestInit = Resources.EMPTY;
        ImmutableList<JsonNode> init = reader.array("spec.initContainers");
        for (int index = 0; index < init.size(); index++) {
            String path = "spec.initContainers[" + index + "]";
            Resources request = containerRequest(reader, init.get(index), path);
            if (reader.string(init.get(index).path("restartPolicy"), path + ".restartPolicy").orElse("").equals("Always")) {
                sidecars = sidecars.add(request);
                largestInit = largestInit.max(sidecars);
            } else {
                largestInit = largestInit.max(request.add(sidecars));
            }
        }
        Resources overhead = QuantityFields.read(reader, "spec.overhead").resources();
        Resources request = containers.add(sidecars).add(overhead);
        return new Requests(request, request.max(largestInit));
    }

    /** One container's requests; the API server defaults each request that is missing to its limit. */
    private static Resources containerRequest(FieldReader reader, JsonNode container, String path) {
        if (!reader.isMapOrAbsent(container, path)) {
            return Resources.EMPTY;
        }
        JsonNode requestsNode = container.path("resources").path("requests");
        ResourceList requests = QuantityFields.read(reader, requestsNode, path + ".resources.requests");
        ResourceList limits = QuantityFields.read(reader, container.path("resources").path("limits"), path + ".resources.limits");
        Resources request = requests.resources();
        Resources limit = limits.resources();
        TreeMap<String, Double> scalars = new TreeMap<>(limit.scalars());
        scalars.putAll(request.scalars());
        return new Resources(
                requestsNode.has(Resources.CPU) ? request.milliCpu() : limit.milliCpu(),
                requestsNode.has(Resources.MEMORY) ? request.memory() : limit.memory(),
                ImmutableSortedMap.copyOf(scalars));
    }
}
