package dev.muster.engine.cache;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.cache.QuantityFields.ResourceList;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NetworkTopology;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.SubGroupPolicy;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Converts PodGroups (Volcano's {@code scheduling.volcano.sh/v1beta1} and scheduler-plugins'
 * {@code scheduling.x-k8s.io/v1alpha1}) into {@link Job}s without tasks. A PodGroup with a bad field
 * is kept, so its pods are not scheduled by anyone else, but every error is also recorded on the job
 * ({@link Job#problems()}), which keeps it pending; a bad quantity is left out of its resource list.
 */
final class PodGroupConverter {
    /** A PodGroup without {@code spec.minMember} is a gang of one. */
    static final int DEFAULT_MIN_MEMBER = 1;

    private PodGroupConverter() {}

    /** A job and the object it came from: a PodGroup, or the first pod of an automatic PodGroup. */
    record ConvertedJob(ManifestObject object, Job job) {
        ConvertedJob {
            requireNonNull(object, "object is null");
            requireNonNull(job, "job is null");
        }
    }

    static ConvertedJob convert(ManifestObject object, PriorityClasses priorityClasses, Problems problems) {
        FieldReader reader = new FieldReader(object, problems);
        boolean volcano = object.kind() == ResourceKind.VOLCANO_POD_GROUP;
        JobId id = new JobId(object.namespace(), object.name());
        String uid = reader.string("metadata.uid").filter(text -> !text.isEmpty()).orElse(id.toString());
        QueueName queue = volcano
                ? reader.string("spec.queue").filter(text -> !text.isEmpty()).map(QueueName::new).orElse(Queue.DEFAULT)
                : Queue.DEFAULT;
        int minMember = nonNegative(reader, "spec.minMember").orElse(DEFAULT_MIN_MEMBER);
        ImmutableMap<String, Integer> minTaskMember = volcano ? minTaskMember(reader) : ImmutableMap.of();
        Optional<Resources> minResources = minResources(reader);
        String priorityClassName = volcano ? priorityClassName(reader, priorityClasses) : "";
        PodGroupPhase phase = volcano ? volcanoPhase(reader) : coschedulingPhase(reader);
        Optional<NetworkTopology> networkTopology =
                volcano ? networkTopology(reader, reader.at("spec.networkTopology"), "spec.networkTopology") : Optional.empty();
        ImmutableList<SubGroupPolicy> subGroupPolicies = volcano ? SubGroupPolicyConverter.read(reader) : ImmutableList.of();
        if (!volcano) {
            // read for its type only: the engine has no schedule timeout
            reader.integer("spec.scheduleTimeoutSeconds");
        }
        Instant created = reader.instant("metadata.creationTimestamp").orElse(Instant.EPOCH);
        ImmutableMap<String, String> annotations = reader.stringMap("metadata.annotations");
        Job job = new Job(id, uid, queue, minMember, minTaskMember, minResources,
                priorityClasses.jobPriority(priorityClassName), priorityClassName, phase, created, networkTopology,
                annotations, ImmutableList.of(), ImmutableList.of(), subGroupPolicies);
        for (String error : reader.errors()) {
            job = job.withProblem(error);
        }
        return new ConvertedJob(object, job);
    }

    /** {@code spec.priorityClassName}, warned about when no such PriorityClass exists (its jobs get priority 0). */
    static String priorityClassName(FieldReader reader, PriorityClasses priorityClasses) {
        String name = reader.string("spec.priorityClassName").orElse("");
        if (!name.isEmpty() && !priorityClasses.values().containsKey(name)) {
            reader.warning("spec.priorityClassName", "PriorityClass '" + name + "' does not exist; priority 0");
        }
        return name;
    }

    private static Optional<Integer> nonNegative(FieldReader reader, String path) {
        return nonNegative(reader, reader.at(path), path);
    }

    static Optional<Integer> nonNegative(FieldReader reader, JsonNode node, String path) {
        Optional<Integer> value = reader.integer(node, path);
        if (value.isPresent() && value.get() < 0) {
            reader.error(path, value.get() + " is negative");
            return Optional.empty();
        }
        return value;
    }

    private static ImmutableMap<String, Integer> minTaskMember(FieldReader reader) {
        JsonNode node = reader.at("spec.minTaskMember");
        if (!reader.isMapOrAbsent(node, "spec.minTaskMember")) {
            return ImmutableMap.of();
        }
        Map<String, Integer> members = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            nonNegative(reader, entry.getValue(), "spec.minTaskMember." + entry.getKey())
                    .ifPresent(value -> members.put(entry.getKey(), value));
        }
        return ImmutableMap.copyOf(members);
    }

    /** Absent when the PodGroup has no {@code spec.minResources}, as Volcano's nil. */
    private static Optional<Resources> minResources(FieldReader reader) {
        if (FieldReader.absent(reader.at("spec.minResources"))) {
            return Optional.empty();
        }
        ResourceList list = QuantityFields.read(reader, "spec.minResources");
        return Optional.of(list.resources());
    }

    private static PodGroupPhase volcanoPhase(FieldReader reader) {
        String text = reader.string("status.phase").orElse("");
        try {
            return PodGroupPhase.parse(text);
        } catch (IllegalArgumentException e) {
            reader.error("status.phase", e.getMessage());
            return PodGroupPhase.PENDING;
        }
    }

    /** scheduler-plugins' phases, in Volcano's terms. */
    private static PodGroupPhase coschedulingPhase(FieldReader reader) {
        String text = reader.string("status.phase").orElse("");
        return switch (text) {
            case "", "Pending", "PreScheduling", "Scheduling" -> PodGroupPhase.PENDING;
            case "Scheduled", "Running" -> PodGroupPhase.RUNNING;
            case "Succeeded", "Failed", "Finished" -> PodGroupPhase.COMPLETED;
            default -> {
                reader.error("status.phase", "unknown PodGroup phase '" + text
                        + "' (known: Pending, PreScheduling, Scheduling, Scheduled, Running, Succeeded, Failed, Finished)");
                yield PodGroupPhase.PENDING;
            }
        };
    }

    /** A {@code networkTopology} map (of the PodGroup or of a subgroup policy) at a path. */
    static Optional<NetworkTopology> networkTopology(FieldReader reader, JsonNode node, String path) {
        if (FieldReader.absent(node) || !reader.isMapOrAbsent(node, path)) {
            return Optional.empty();
        }
        // an absent mode is hard, the CRD's default
        String mode = reader.string(node.path("mode"), path + ".mode").orElse("hard");
        if (mode.isEmpty()) {
            // the CRD's enum rejects it, but Volcano, given one, treats it as neither hard nor soft: no constraint
            reader.warning(path + ".mode", "'' is neither hard nor soft; the job has no topology constraint");
            return Optional.empty();
        }
        if (!mode.equals("hard") && !mode.equals("soft")) {
            reader.error(path + ".mode", "'" + mode + "' is not one of hard, soft");
        }
        Optional<Integer> highestTierAllowed = nonNegative(reader, node.path("highestTierAllowed"), path + ".highestTierAllowed");
        Optional<String> highestTierName = reader.string(node.path("highestTierName"), path + ".highestTierName")
                .filter(text -> !text.isEmpty());
        return Optional.of(new NetworkTopology(!mode.equals("soft"), highestTierAllowed, highestTierName));
    }
}
