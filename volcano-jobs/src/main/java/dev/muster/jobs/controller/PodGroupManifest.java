package dev.muster.jobs.controller;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.api.SchedulingApi;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.math.BigDecimal;

/**
 * The {@code scheduling.volcano.sh/v1beta1} PodGroup a Job needs, as Volcano's job controller makes it:
 * named {@code <job>-<uid>}, with the job's labels and annotations, {@code minMember} the job's
 * minAvailable, {@code minTaskMember} each task's minimum, and {@code minResources} the requests of the
 * first minAvailable pods, higher-priority tasks first.
 *
 * @param minResources resource name to amount in base units (cores, bytes, devices)
 */
public record PodGroupManifest(
        String namespace,
        String name,
        OwnerReference owner,
        ImmutableMap<String, String> labels,
        ImmutableMap<String, String> annotations,
        int minMember,
        ImmutableSortedMap<String, Integer> minTaskMember,
        String queue,
        String priorityClassName,
        ImmutableSortedMap<String, BigDecimal> minResources) {
    public static final String API_VERSION = SchedulingApi.VOLCANO_SCHEDULING;
    private static final ObjectMapper JSON = new ObjectMapper();

    public PodGroupManifest {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        requireNonNull(owner, "owner is null");
        labels = ImmutableMap.copyOf(labels);
        annotations = ImmutableMap.copyOf(annotations);
        checkArgument(minMember >= 0, "podgroup %s: negative minMember %s", name, minMember);
        minTaskMember = ImmutableSortedMap.copyOf(minTaskMember);
        requireNonNull(queue, "queue is null");
        requireNonNull(priorityClassName, "priorityClassName is null");
        minResources = ImmutableSortedMap.copyOf(minResources);
    }

    /** The object as the API server takes it, for create; an update copies {@code spec} onto the live object. */
    public ObjectNode toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("apiVersion", API_VERSION);
        root.put("kind", "PodGroup");
        ObjectNode metadata = root.putObject("metadata");
        metadata.put("namespace", namespace);
        metadata.put("name", name);
        labels.forEach(metadata.putObject("labels")::put);
        annotations.forEach(metadata.putObject("annotations")::put);
        metadata.putArray("ownerReferences").add(JSON.<ObjectNode>valueToTree(owner));
        ObjectNode spec = root.putObject("spec");
        spec.put("minMember", minMember);
        minTaskMember.forEach(spec.putObject("minTaskMember")::put);
        spec.put("queue", queue);
        if (!priorityClassName.isEmpty()) {
            spec.put("priorityClassName", priorityClassName);
        }
        ObjectNode resources = spec.putObject("minResources");
        minResources.forEach((resource, amount) -> resources.put(resource, amount.stripTrailingZeros().toPlainString()));
        return root;
    }
}
