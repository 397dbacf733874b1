package dev.muster.cli.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableSet;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.HyperNode;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.Task;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The objects a snapshot holds, as {@code Kind namespace/name} keys, and the keys a manifest document
 * names: the fuzz test checks that what an untouched document contributed is still there.
 */
final class ObjectKeys {
    private ObjectKeys() {}

    static ImmutableSet<String> of(ClusterSnapshot snapshot) {
        Set<String> keys = new HashSet<>();
        snapshot.nodes().keySet().forEach(node -> keys.add("Node " + node.value()));
        snapshot.queues().keySet().forEach(queue -> keys.add("Queue " + queue.value()));
        snapshot.priorityClasses().keySet().forEach(name -> keys.add("PriorityClass " + name));
        for (HyperNode hyperNode : snapshot.hyperNodes()) {
            keys.add("HyperNode " + hyperNode.name());
        }
        for (Job job : snapshot.jobs().values()) {
            keys.add("PodGroup " + job.id());
            job.tasks().forEach(task -> keys.add("Pod " + task.id()));
        }
        for (Task task : snapshot.otherTasks()) {
            keys.add("Pod " + task.id());
        }
        return ImmutableSet.copyOf(keys);
    }

    /** The keys a document names (a List's items each), whether or not the reader kept them. */
    static ImmutableSet<String> named(Optional<JsonNode> tree) {
        Set<String> keys = new HashSet<>();
        tree.ifPresent(document -> {
            if (document.path("items").isArray()) {
                document.path("items").forEach(item -> key(item).ifPresent(keys::add));
            } else {
                key(document).ifPresent(keys::add);
            }
        });
        return ImmutableSet.copyOf(keys);
    }

    private static Optional<String> key(JsonNode object) {
        String kind = object.path("kind").asText("");
        String name = object.path("metadata").path("name").asText("");
        if (kind.isEmpty() || name.isEmpty()) {
            return Optional.empty();
        }
        boolean namespaced = kind.equals("Pod") || kind.equals("PodGroup");
        String namespace = object.path("metadata").path("namespace").asText("");
        return Optional.of(kind + " " + (namespaced ? (namespace.isEmpty() ? "default" : namespace) + "/" : "") + name);
    }
}
