package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A training job's {@code status} as native mode keeps it: conditions, replica statuses per replica type,
 * {@code startTime} and {@code completionTime} ({@code JobStatus}, {@code common_types.go}). A value: every
 * change is a copy. {@link #withCondition} follows the operator's {@code setCondition} ({@code pkg/util/status.go:103-149}).
 */
public record NativeJobStatus(
        ImmutableList<JobCondition> conditions,
        ImmutableSortedMap<String, ReplicaCounts> replicaStatuses,
        Optional<Instant> startTime,
        Optional<Instant> completionTime) {
    public static final NativeJobStatus EMPTY = new NativeJobStatus(ImmutableList.of(), ImmutableSortedMap.of(), Optional.empty(),
            Optional.empty());

    public NativeJobStatus {
        conditions = ImmutableList.copyOf(conditions);
        replicaStatuses = ImmutableSortedMap.copyOf(replicaStatuses);
        requireNonNull(startTime, "startTime is null");
        requireNonNull(completionTime, "completionTime is null");
    }

    /** One replica type's pods by phase ({@code ReplicaStatus}): Running, Succeeded, Failed. */
    public record ReplicaCounts(int active, int succeeded, int failed) {
        public static final ReplicaCounts NONE = new ReplicaCounts(0, 0, 0);
    }

    public Optional<JobCondition> condition(String type) {
        return conditions.stream().filter(condition -> condition.type().equals(type)).findFirst();
    }

    public boolean isTrue(String type) {
        return condition(type).map(JobCondition::status).orElse(false);
    }

    /** Succeeded or Failed ({@code IsFinished}). */
    public boolean finished() {
        return isTrue(JobCondition.SUCCEEDED) || isTrue(JobCondition.FAILED);
    }

    /**
     * The condition set as the operator sets it: nothing changes once Failed; the same status and reason is left
     * alone; an unchanged status keeps its transition time; Running and Restarting replace each other; Succeeded
     * or Failed turns Running to False.
     */
    public NativeJobStatus withCondition(String type, boolean status, String reason, String message, Instant now) {
        if (isTrue(JobCondition.FAILED)) {
            return this;
        }
        Optional<JobCondition> current = condition(type);
        if (current.isPresent() && current.get().status() == status && current.get().reason().equals(reason)) {
            return this;
        }
        Instant time = now.truncatedTo(ChronoUnit.SECONDS);
        JobCondition condition = new JobCondition(type, status, reason, message, time, time);
        if (current.isPresent() && current.get().status() == status) {
            condition = condition.withLastTransitionTime(current.get().lastTransitionTime());
        }
        List<JobCondition> kept = new ArrayList<>();
        for (JobCondition other : conditions) {
            boolean replaced = other.type().equals(type)
                    || (type.equals(JobCondition.RESTARTING) && other.type().equals(JobCondition.RUNNING))
                    || (type.equals(JobCondition.RUNNING) && other.type().equals(JobCondition.RESTARTING));
            if (replaced) {
                continue;
            }
            boolean ends = type.equals(JobCondition.FAILED) || type.equals(JobCondition.SUCCEEDED);
            kept.add(ends && other.type().equals(JobCondition.RUNNING) ? other.withStatus(false) : other);
        }
        kept.add(condition);
        return new NativeJobStatus(ImmutableList.copyOf(kept), replicaStatuses, startTime, completionTime);
    }

    public NativeJobStatus withReplicaStatuses(Map<String, ReplicaCounts> statuses) {
        return new NativeJobStatus(conditions, ImmutableSortedMap.copyOf(statuses), startTime, completionTime);
    }

    public NativeJobStatus withStartTime(Instant time) {
        return new NativeJobStatus(conditions, replicaStatuses, Optional.of(time.truncatedTo(ChronoUnit.SECONDS)), completionTime);
    }

    /** Sets {@code completionTime} unless it is set already. */
    public NativeJobStatus completedAt(Instant time) {
        return completionTime.isPresent() ? this
                : new NativeJobStatus(conditions, replicaStatuses, startTime, Optional.of(time.truncatedTo(ChronoUnit.SECONDS)));
    }

    /** Reads a job's {@code status}; what it cannot read (a bad time, say) is taken as absent. */
    public static NativeJobStatus of(JsonNode status) {
        List<JobCondition> conditions = new ArrayList<>();
        for (JsonNode condition : status.path("conditions")) {
            Instant updated = time(condition.path("lastUpdateTime")).orElse(Instant.EPOCH);
            conditions.add(new JobCondition(condition.path("type").asText(""), condition.path("status").asText("").equals("True"),
                    condition.path("reason").asText(""), condition.path("message").asText(""), updated,
                    time(condition.path("lastTransitionTime")).orElse(updated)));
        }
        ImmutableSortedMap.Builder<String, ReplicaCounts> replicas = ImmutableSortedMap.naturalOrder();
        status.path("replicaStatuses").properties().forEach(entry -> replicas.put(entry.getKey(), new ReplicaCounts(
                entry.getValue().path("active").asInt(0), entry.getValue().path("succeeded").asInt(0), entry.getValue().path("failed").asInt(0))));
        return new NativeJobStatus(ImmutableList.copyOf(conditions), replicas.build(), time(status.path("startTime")),
                time(status.path("completionTime")));
    }

    /** {@code original} (a job's status, kept for fields native mode does not write) with this status's fields. */
    public ObjectNode toJson(JsonNode original) {
        ObjectNode status = original.isObject() ? ((ObjectNode) original).deepCopy() : JsonNodeFactory.instance.objectNode();
        ArrayNode conditionsNode = status.putArray("conditions");
        for (JobCondition condition : conditions) {
            conditionsNode.addObject().put("type", condition.type()).put("status", condition.status() ? "True" : "False")
                    .put("reason", condition.reason()).put("message", condition.message())
                    .put("lastUpdateTime", format(condition.lastUpdateTime())).put("lastTransitionTime", format(condition.lastTransitionTime()));
        }
        ObjectNode replicas = status.putObject("replicaStatuses");
        replicaStatuses.forEach((type, counts) -> {
            // the operator's fields are omitempty
            ObjectNode node = replicas.putObject(type);
            if (counts.active() > 0) {
                node.put("active", counts.active());
            }
            if (counts.succeeded() > 0) {
                node.put("succeeded", counts.succeeded());
            }
            if (counts.failed() > 0) {
                node.put("failed", counts.failed());
            }
        });
        startTime.ifPresentOrElse(time -> status.put("startTime", format(time)), () -> status.remove("startTime"));
        completionTime.ifPresentOrElse(time -> status.put("completionTime", format(time)), () -> status.remove("completionTime"));
        return status;
    }

    private static String format(Instant time) {
        return DateTimeFormatter.ISO_INSTANT.format(time.truncatedTo(ChronoUnit.SECONDS));
    }

    private static Optional<Instant> time(JsonNode node) {
        if (!node.isTextual()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(node.asText()));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
