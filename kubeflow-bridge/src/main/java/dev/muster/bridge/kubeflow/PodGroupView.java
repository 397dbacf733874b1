package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * What the bridge reads of a PodGroup named after a training job (Volcano's or scheduler-plugins'):
 * its spec as the operator wrote it, when it was made, its phase, the message of Muster's
 * {@code Unschedulable} condition (Volcano's only: Muster writes no scheduler-plugins status), and
 * whether the bridge wrote it as the mirror of a scheduler-plugins one, and whether it has any of the
 * {@code task-topology} plugin's annotations.
 */
public record PodGroupView(
        String apiVersion,
        String name,
        int minMember,
        JsonNode minResources,
        Optional<String> queue,
        Instant created,
        String phase,
        Optional<String> unschedulable,
        boolean mirror,
        boolean hasTaskTopology) {
    public PodGroupView {
        requireNonNull(apiVersion, "apiVersion is null");
        requireNonNull(name, "name is null");
        requireNonNull(minResources, "minResources is null");
        requireNonNull(queue, "queue is null");
        requireNonNull(created, "created is null");
        requireNonNull(phase, "phase is null");
        requireNonNull(unschedulable, "unschedulable is null");
    }

    /** A PodGroup without task-topology annotations. */
    public PodGroupView(String apiVersion, String name, int minMember, JsonNode minResources, Optional<String> queue, Instant created,
            String phase, Optional<String> unschedulable, boolean mirror) {
        this(apiVersion, name, minMember, minResources, queue, created, phase, unschedulable, mirror, false);
    }

    public static PodGroupView of(JsonNode object) {
        JsonNode spec = object.path("spec");
        JsonNode resources = spec.path("minResources");
        Optional<String> unschedulable = Optional.empty();
        for (JsonNode condition : object.path("status").path("conditions")) {
            if (condition.path("type").asText("").equals("Unschedulable") && condition.path("status").asText("").equals("True")) {
                unschedulable = Optional.of(condition.path("message").asText("")).filter(text -> !text.isEmpty());
            }
        }
        JsonNode metadata = object.path("metadata");
        return new PodGroupView(object.path("apiVersion").asText(""), metadata.path("name").asText(""), spec.path("minMember").asInt(1),
                resources.isObject() ? resources : JsonNodeFactory.instance.objectNode(),
                Optional.of(spec.path("queue").asText("")).filter(text -> !text.isEmpty()), created(metadata.path("creationTimestamp")),
                object.path("status").path("phase").asText(""), unschedulable,
                metadata.path("labels").has(KubeflowApi.MIRROR_OF), hasTaskTopology(metadata.path("annotations")));
    }

    private static boolean hasTaskTopology(JsonNode annotations) {
        return annotations.has(TaskTopologyDefault.AFFINITY) || annotations.has(TaskTopologyDefault.ANTI_AFFINITY)
                || annotations.has(TaskTopologyDefault.TASK_ORDER);
    }

    private static Instant created(JsonNode node) {
        try {
            return node.isTextual() ? Instant.parse(node.asText()) : Instant.EPOCH;
        } catch (DateTimeParseException e) {
            return Instant.EPOCH;
        }
    }
}
