package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.bridge.kubeflow.TrainingJob.ElasticRange;
import dev.muster.bridge.kubeflow.TrainingJob.SchedulingPolicy;
import dev.muster.engine.model.Quantities;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads a TFJob or PyTorchJob (as JSON) into a {@link TrainingJob} and every problem of its input, each
 * naming the field and the bad value: an unknown replica type, negative or non-integer replicas,
 * {@code minAvailable} above the total replicas, a negative {@code scheduleTimeoutSeconds}, an elastic
 * range with {@code minReplicas} above {@code maxReplicas}, a {@code minResources} entry that is not a quantity. A replica spec that cannot be read counts as
 * absent, so the job read is always whole enough to name; the caller decides what problems mean.
 */
public final class TrainingJobReader {
    private TrainingJobReader() {}

    /** The job read and the problems of its input (empty when it is good). */
    public record Read(TrainingJob job, ImmutableList<FieldProblem> problems) {
        public Read {
            requireNonNull(job, "job is null");
            problems = ImmutableList.copyOf(problems);
        }
    }

    public static Read read(TrainingKind kind, JsonNode object) {
        requireNonNull(kind, "kind is null");
        List<FieldProblem> problems = new ArrayList<>();
        JsonNode metadata = object.path("metadata");
        JsonNode spec = object.path("spec");
        Map<String, Integer> replicas = new TreeMap<>();
        String specsField = "spec." + kind.replicaSpecsField();
        JsonNode specs = spec.path(kind.replicaSpecsField());
        if (!specs.isObject() || specs.isEmpty()) {
            problems.add(new FieldProblem(specsField, "must name at least one replica type (known: " + String.join(", ", kind.replicaTypes()) + ")"));
        } else {
            for (Map.Entry<String, JsonNode> entry : specs.properties()) {
                String type = entry.getKey();
                String field = specsField + "." + type;
                if (!kind.replicaTypes().contains(type)) {
                    problems.add(new FieldProblem(field, "unknown replica type '" + type + "' of a " + kind.kind() + " (known: "
                            + String.join(", ", kind.replicaTypes()) + ")"));
                    continue;
                }
                // the operator's default (setDefaultReplicas): an absent count is 1
                integer(entry.getValue().path("replicas"), field + ".replicas", problems).or(() -> Optional.of(1)).ifPresent(count -> {
                    if (count < 0) {
                        problems.add(new FieldProblem(field + ".replicas", count + " is negative"));
                    } else {
                        replicas.put(type, count);
                    }
                });
            }
        }
        SchedulingPolicy policy = schedulingPolicy(spec.path("runPolicy").path("schedulingPolicy"), problems);
        int total = replicas.values().stream().mapToInt(Integer::intValue).sum();
        policy.minAvailable().ifPresent(minAvailable -> {
            String field = "spec.runPolicy.schedulingPolicy.minAvailable";
            if (minAvailable < 0) {
                problems.add(new FieldProblem(field, minAvailable + " is negative"));
            } else if (minAvailable > total) {
                problems.add(new FieldProblem(field, minAvailable + " is above the " + total + " replicas of the job, so the gang could never start"));
            }
        });
        Optional<ElasticRange> elastic = kind == TrainingKind.PYTORCHJOB ? elastic(spec.path("elasticPolicy"), replicas, problems) : Optional.empty();
        boolean suspended = spec.path("runPolicy").path("suspend").asBoolean(false);
        Optional<String> suspendedByMuster = Optional.ofNullable(metadata.path("annotations").get(KubeflowApi.SUSPENDED_BY_MUSTER))
                .map(JsonNode::asText);
        TrainingJob job = new TrainingJob(kind, metadata.path("namespace").asText(""), metadata.path("name").asText(""),
                metadata.path("uid").asText(""), created(metadata.path("creationTimestamp")), ImmutableSortedMap.copyOf(replicas), policy, elastic, suspended,
                suspendedByMuster, finished(object.path("status").path("conditions")), ManagedBy.read(object));
        return new Read(job, ImmutableList.copyOf(problems));
    }

    private static SchedulingPolicy schedulingPolicy(JsonNode node, List<FieldProblem> problems) {
        if (!node.isObject()) {
            return SchedulingPolicy.NONE;
        }
        String path = "spec.runPolicy.schedulingPolicy.";
        Optional<Integer> timeout = integer(node.path("scheduleTimeoutSeconds"), path + "scheduleTimeoutSeconds", problems);
        if (timeout.isPresent() && timeout.get() < 0) {
            problems.add(new FieldProblem(path + "scheduleTimeoutSeconds", timeout.get() + " is negative"));
            timeout = Optional.empty();
        }
        return new SchedulingPolicy(integer(node.path("minAvailable"), path + "minAvailable", problems), text(node.path("queue")),
                text(node.path("priorityClass")), timeout, resourceList(node.path("minResources"), path + "minResources", problems));
    }

    private static Optional<ElasticRange> elastic(JsonNode node, Map<String, Integer> replicas, List<FieldProblem> problems) {
        if (!node.isObject()) {
            return Optional.empty();
        }
        int workers = replicas.getOrDefault("Worker", 0);
        // the operator's defaults (setElasticPolicy): an absent bound is the Worker replicas
        int min = integer(node.path("minReplicas"), "spec.elasticPolicy.minReplicas", problems).orElse(workers);
        int max = integer(node.path("maxReplicas"), "spec.elasticPolicy.maxReplicas", problems).orElse(workers);
        if (min < 0 || min > max) {
            problems.add(new FieldProblem("spec.elasticPolicy.minReplicas", min + " is negative or above maxReplicas " + max));
            return Optional.empty();
        }
        return Optional.of(new ElasticRange(min, max));
    }

    /** A resource list (names to quantities), or absent when the job leaves it out or it has a problem. */
    private static Optional<ObjectNode> resourceList(JsonNode node, String field, List<FieldProblem> problems) {
        int problemsBefore = problems.size();
        checkResourceList(node, field, problems);
        return node.isObject() && problems.size() == problemsBefore ? Optional.of((ObjectNode) node) : Optional.empty();
    }

    /** Adds a problem for a resource list that is not a map, and for each entry that is not a non-negative Kubernetes quantity. */
    static void checkResourceList(JsonNode node, String field, List<FieldProblem> problems) {
        if (node.isMissingNode() || node.isNull()) {
            return;
        }
        if (!node.isObject()) {
            problems.add(new FieldProblem(field, "'" + node + "' is not a list of resource names and quantities"));
            return;
        }
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String entryField = field + "." + entry.getKey();
            if (!entry.getValue().isTextual() && !entry.getValue().isNumber()) {
                problems.add(new FieldProblem(entryField, "'" + entry.getValue() + "' is not a Kubernetes quantity"));
                continue;
            }
            String text = entry.getValue().asText();
            try {
                if (Quantities.parse(text).signum() < 0) {
                    problems.add(new FieldProblem(entryField, "'" + text + "' is negative"));
                }
            } catch (IllegalArgumentException e) {
                problems.add(new FieldProblem(entryField, "'" + text + "' is not a Kubernetes quantity"));
            }
        }
    }

    private static Optional<Integer> integer(JsonNode node, String field, List<FieldProblem> problems) {
        if (node.isMissingNode() || node.isNull()) {
            return Optional.empty();
        }
        if (!node.canConvertToInt() || !node.isIntegralNumber()) {
            problems.add(new FieldProblem(field, "'" + node.asText() + "' is not an integer"));
            return Optional.empty();
        }
        return Optional.of(node.intValue());
    }

    private static Optional<String> text(JsonNode node) {
        return node.isTextual() && !node.asText().isEmpty() ? Optional.of(node.asText()) : Optional.empty();
    }

    private static Instant created(JsonNode node) {
        try {
            return node.isTextual() ? Instant.parse(node.asText()) : Instant.EPOCH;
        } catch (DateTimeParseException e) {
            return Instant.EPOCH;
        }
    }

    /** Whether the operator has marked the job Succeeded or Failed. */
    private static boolean finished(JsonNode conditions) {
        for (JsonNode condition : conditions) {
            String type = condition.path("type").asText("");
            if ((type.equals("Succeeded") || type.equals("Failed")) && condition.path("status").asText("").equals("True")) {
                return true;
            }
        }
        return false;
    }
}
