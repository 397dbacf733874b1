package dev.muster.engine.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.cache.QuantityFields.ResourceList;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Taint;
import java.util.Optional;

/** Converts a {@code v1} Node into a {@link ClusterNode}; a Node with a bad field is left out. */
final class NodeConverter {
    /** The kubelet's default {@code --max-pods}. */
    static final int DEFAULT_MAX_PODS = 110;

    private NodeConverter() {}

    static Optional<ClusterNode> convert(ManifestObject object, Problems problems) {
        FieldReader reader = new FieldReader(object, problems);
        boolean hasAllocatable = !FieldReader.absent(reader.at("status.allocatable"));
        boolean hasCapacity = !FieldReader.absent(reader.at("status.capacity"));
        ResourceList capacity = QuantityFields.read(reader, "status.capacity");
        // without allocatable, the kubelet would report all of its capacity as allocatable
        ResourceList allocatable = hasAllocatable ? QuantityFields.read(reader, "status.allocatable") : capacity;
        long maxPods = allocatable.pods().orElse(capacity.pods().orElse(DEFAULT_MAX_PODS));
        if (maxPods > Integer.MAX_VALUE) {
            reader.error(hasAllocatable ? "status.allocatable.pods" : "status.capacity.pods", maxPods + " is too large");
        }
        ImmutableMap<String, String> labels = reader.labels("metadata.labels");
        ImmutableList<Taint> taints = taints(reader);
        boolean unschedulable = reader.bool("spec.unschedulable").orElse(false);
        boolean ready = ready(reader);
        if (reader.hasErrors()) {
            return Optional.empty();
        }
        return Optional.of(new ClusterNode(
                new NodeName(object.name()),
                allocatable.resources(),
                hasCapacity ? capacity.resources() : allocatable.resources(),
                (int) maxPods,
                labels,
                taints,
                unschedulable,
                ready));
    }

    private static ImmutableList<Taint> taints(FieldReader reader) {
        ImmutableList.Builder<Taint> taints = ImmutableList.builder();
        ImmutableList<JsonNode> nodes = reader.array("spec.taints");
        for (int index = 0; index < nodes.size(); index++) {
            JsonNode taint = nodes.get(index);
            String path = "spec.taints[" + index + "]";
            if (!reader.isMapOrAbsent(taint, path)) {
                continue;
            }
            Optional<String> key = reader.string(taint.path("key"), path + ".key");
            Optional<String> effect = reader.string(taint.path("effect"), path + ".effect");
            String value = reader.string(taint.path("value"), path + ".value").orElse("");
            if (key.isEmpty() || effect.isEmpty()) {
                reader.error(path, "a taint needs a key and an effect");
                continue;
            }
            taints.add(new Taint(key.get(), value, effect.get()));
        }
        return taints.build();
    }

    /** Ready unless a Ready condition says otherwise: a manifest without conditions describes a usable node. */
    private static boolean ready(FieldReader reader) {
        ImmutableList<JsonNode> conditions = reader.array("status.conditions");
        for (int index = 0; index < conditions.size(); index++) {
            JsonNode condition = conditions.get(index);
            String path = "status.conditions[" + index + "]";
            if (reader.isMapOrAbsent(condition, path)
                    && reader.string(condition.path("type"), path + ".type").orElse("").equals("Ready")) {
                return reader.string(condition.path("status"), path + ".status").orElse("").equals("True");
            }
        }
        return true;
    }
}
