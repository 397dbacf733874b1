package dev.muster.bridge.spark.operator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Optional;

/**
 * What the bridge reads of a PodGroup of a SparkApplication: its spec and annotations as they are, the
 * message of Muster's {@code Unschedulable} condition (on Volcano PodGroups only: Muster writes no
 * scheduler-plugins status), and whether the bridge wrote it as the mirror of a scheduler-plugins one.
 *
 * @param spec the PodGroup's spec, an empty object when it has none
 * @param annotations its annotations, an empty object when it has none
 */
public record PodGroupView(String name, JsonNode spec, JsonNode annotations, Optional<String> unschedulable, boolean mirror) {
    public PodGroupView {
        requireNonNull(name, "name is null");
        requireNonNull(spec, "spec is null");
        requireNonNull(annotations, "annotations is null");
        requireNonNull(unschedulable, "unschedulable is null");
    }

    public static PodGroupView of(JsonNode object) {
        Optional<String> unschedulable = Optional.empty();
        for (JsonNode condition : object.path("status").path("conditions")) {
            if (condition.path("type").asText("").equals("Unschedulable") && condition.path("status").asText("").equals("True")) {
                unschedulable = Optional.of(condition.path("message").asText("")).filter(text -> !text.isEmpty());
            }
        }
        JsonNode metadata = object.path("metadata");
        return new PodGroupView(metadata.path("name").asText(""), objectOrEmpty(object.path("spec")),
                objectOrEmpty(metadata.path("annotations")), unschedulable, metadata.path("labels").has(SparkOperatorApi.MIRROR_OF));
    }

    private static JsonNode objectOrEmpty(JsonNode node) {
        return node.isObject() ? node : JsonNodeFactory.instance.objectNode();
    }
}
