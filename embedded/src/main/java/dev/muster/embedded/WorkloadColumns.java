package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * kube-apiserver v1.34.4's table columns of apps/v1 Deployments, ReplicaSets and StatefulSets
 * ({@code pkg/printers/internalversion/printers.go}: {@code printDeployment}, {@code printReplicaSet},
 * {@code printStatefulSet}), and the cells they share with a Job's ({@link JobColumns}): the template's
 * containers and images, and a selector as text.
 */
final class WorkloadColumns {
    static final String NONE = "<none>";
    private static final String SPEC = "spec";
    private static final String STATUS = "status";
    private static final String REPLICAS = "replicas";
    private static final String READY_REPLICAS = "readyReplicas";

    private WorkloadColumns() {}

    static ImmutableList<Column> deployments(Function<JsonNode, Object> age) {
        return ImmutableList.of(
                Column.string("Ready", 0, deployment -> count(deployment, STATUS, READY_REPLICAS) + "/" + count(deployment, SPEC, REPLICAS)),
                Column.string("Up-to-date", 0, deployment -> count(deployment, STATUS, "updatedReplicas")),
                Column.string("Available", 0, deployment -> count(deployment, STATUS, "availableReplicas")),
                Column.string("Age", 0, age),
                Column.string("Containers", 1, deployment -> containers(deployment, "name")),
                Column.string("Images", 1, deployment -> containers(deployment, "image")),
                // LabelSelectorAsSelector(...).String(): empty, not <none>, for a selector of nothing
                Column.string("Selector", 1, deployment -> {
                    String selector = selector(deployment.path(SPEC).path("selector"));
                    return selector.equals(NONE) ? "" : selector;
                }));
    }

    static ImmutableList<Column> replicaSets(Function<JsonNode, Object> age) {
        return ImmutableList.of(
                new Column("Desired", "integer", 0, replicaSet -> count(replicaSet, SPEC, REPLICAS)),
                new Column("Current", "integer", 0, replicaSet -> count(replicaSet, STATUS, REPLICAS)),
                new Column("Ready", "integer", 0, replicaSet -> count(replicaSet, STATUS, READY_REPLICAS)),
                Column.string("Age", 0, age),
                Column.string("Containers", 1, replicaSet -> containers(replicaSet, "name")),
                Column.string("Images", 1, replicaSet -> containers(replicaSet, "image")),
                Column.string("Selector", 1, replicaSet -> selector(replicaSet.path(SPEC).path("selector"))));
    }

    static ImmutableList<Column> statefulSets(Function<JsonNode, Object> age) {
        return ImmutableList.of(
                Column.string("Ready", 0, statefulSet -> count(statefulSet, STATUS, READY_REPLICAS) + "/" + count(statefulSet, SPEC, REPLICAS)),
                Column.string("Age", 0, age),
                Column.string("Containers", 1, statefulSet -> containers(statefulSet, "name")),
                Column.string("Images", 1, statefulSet -> containers(statefulSet, "image")));
    }

    private static long count(JsonNode workload, String part, String field) {
        return workload.path(part).path(field).asLong(0);
    }

    /** The template's containers' names or images, joined by commas, as {@code layoutContainerCells} lays them out. */
    static String containers(JsonNode workload, String field) {
        List<String> values = new ArrayList<>();
        workload.path(SPEC).path("template").path(SPEC).path("containers").forEach(container -> values.add(container.path(field).asText()));
        return String.join(",", values);
    }

    /** As apimachinery's {@code FormatLabelSelector}: the requirements sorted by key, {@code <none>} for none. */
    static String selector(JsonNode selector) {
        Map<String, List<String>> requirements = new TreeMap<>();
        selector.path("matchLabels").properties()
                .forEach(label -> requirements.computeIfAbsent(label.getKey(), key -> new ArrayList<>()).add(label.getKey() + "=" + label.getValue().asText()));
        for (JsonNode expression : selector.path("matchExpressions")) {
            String key = expression.path("key").asText();
            List<String> values = new ArrayList<>();
            expression.path("values").forEach(value -> values.add(value.asText()));
            values.sort(null);
            String requirement = switch (expression.path("operator").asText()) {
                case "In" -> key + " in (" + String.join(",", values) + ")";
                case "NotIn" -> key + " notin (" + String.join(",", values) + ")";
                case "Exists" -> key;
                case "DoesNotExist" -> "!" + key;
                default -> key + " " + expression.path("operator").asText();
            };
            requirements.computeIfAbsent(key, ignored -> new ArrayList<>()).add(requirement);
        }
        List<String> all = new ArrayList<>();
        requirements.values().forEach(all::addAll);
        return all.isEmpty() ? NONE : String.join(",", all);
    }
}
