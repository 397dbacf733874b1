package dev.muster.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a {@code batch.volcano.sh/v1alpha1} Job from YAML, JSON or a JSON tree (what an informer
 * hands over): metadata, the spec with Volcano's webhook defaults, and the status last written.
 * Strict: unknown fields and wrong types are problems. The spec is then checked by {@link JobValidator}.
 */
public final class VolcanoJobReader {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ImmutableSet<String> ROOT_FIELDS = ImmutableSet.of("apiVersion", "kind", "metadata", "spec", "status");
    /** Every ObjectMeta field; the controller reads a few and must not reject the others the API server adds. */
    public static final ImmutableSet<String> METADATA_FIELDS = ImmutableSet.of("name", "namespace", "uid", "labels", "annotations",
            "creationTimestamp", "resourceVersion", "generation", "generateName", "managedFields", "ownerReferences", "finalizers",
            "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink");
    private static final ImmutableSet<String> STATUS_FIELDS = ImmutableSet.of("state", "minAvailable", "taskStatusCount", "pending",
            "running", "succeeded", "failed", "terminating", "unknown", "version", "retryCount", "runningDuration",
            "controlledResources", "conditions");
    private static final ImmutableSet<String> STATE_FIELDS = ImmutableSet.of("phase", "reason", "message", "lastTransitionTime");

    private VolcanoJobReader() {}

    /** Reads one YAML or JSON document. */
    public static JobReadResult<VolcanoJob> read(String text) {
        try {
            return read(YAML.readTree(text));
        } catch (IOException e) {
            return new JobReadResult<>(Optional.empty(), ImmutableList.of("Job: not YAML or JSON: " + e.getMessage()));
        }
    }

    public static JobReadResult<VolcanoJob> read(JsonNode root) {
        List<String> problems = new ArrayList<>();
        Fields object = Fields.root(root, problems, ROOT_FIELDS);
        checkKind(object, VolcanoJob.API_VERSION, VolcanoJob.KIND);
        JobMetadata metadata = readMetadata(object);
        VolcanoJobSpec spec = JobSpecReader.read(object.get("spec"), "spec", problems);
        JobStatus status = readStatus(object.get("status"), problems);
        ImmutableList<String> named = problems.stream().map(problem -> "Job " + metadata.key() + ": " + problem).collect(ImmutableList.toImmutableList());
        return new JobReadResult<>(Optional.of(new VolcanoJob(metadata, spec, status)), named);
    }

    /** Reports a kind or apiVersion other than the expected one. */
    public static void checkKind(Fields object, String apiVersion, String kind) {
        object.string("apiVersion").filter(value -> !value.equals(apiVersion))
                .ifPresent(value -> object.problem("apiVersion", "expected " + apiVersion + ", found '" + value + "'"));
        object.string("kind").filter(value -> !value.equals(kind))
                .ifPresent(value -> object.problem("kind", "expected " + kind + ", found '" + value + "'"));
    }

    public static JobMetadata readMetadata(Fields object) {
        Fields metadata = Fields.of(object.get("metadata"), "metadata", object.problems(), METADATA_FIELDS);
        String name = metadata.string("name").orElse("");
        if (name.isEmpty()) {
            metadata.problem("metadata.name", "missing");
        }
        return new JobMetadata(metadata.string("namespace").filter(value -> !value.isEmpty()).orElse("default"), name,
                metadata.string("uid").orElse(""), metadata.stringMap("labels"), metadata.stringMap("annotations"),
                metadata.instant("creationTimestamp").orElse(Instant.EPOCH));
    }

    private static JobStatus readStatus(JsonNode node, List<String> problems) {
        if (Fields.absent(node)) {
            return JobStatus.NEW;
        }
        Fields status = Fields.of(node, "status", problems, STATUS_FIELDS);
        Fields state = Fields.of(status.get("state"), "status.state", problems, STATE_FIELDS);
        Optional<String> phaseName = state.string("phase").filter(value -> !value.isEmpty());
        Optional<JobPhase> phase = phaseName.flatMap(JobPhase::fromWireName);
        if (phaseName.isPresent() && phase.isEmpty()) {
            state.problem("status.state.phase", "unknown phase '" + phaseName.get() + "'");
        }
        ImmutableList.Builder<JobCondition> conditions = ImmutableList.builder();
        ImmutableList<JsonNode> conditionNodes = status.list("conditions");
        for (int i = 0; i < conditionNodes.size(); i++) {
            Fields condition = Fields.of(conditionNodes.get(i), "status.conditions[" + i + "]", problems, ImmutableSet.of("status", "lastTransitionTime"));
            Optional<JobPhase> conditionPhase = condition.string("status").flatMap(JobPhase::fromWireName);
            Optional<Instant> time = condition.instant("lastTransitionTime");
            if (conditionPhase.isPresent() && time.isPresent()) {
                conditions.add(new JobCondition(conditionPhase.get(), time.get()));
            }
        }
        return new JobStatus(phase, state.string("reason").orElse(""), state.string("message").orElse(""),
                state.instant("lastTransitionTime"), status.count("minAvailable").orElse(0), readTaskStatusCount(status),
                new PodCounts(status.count("pending").orElse(0), status.count("running").orElse(0), status.count("succeeded").orElse(0),
                        status.count("failed").orElse(0), status.count("terminating").orElse(0), status.count("unknown").orElse(0)),
                status.count("version").orElse(0), status.count("retryCount").orElse(0), status.duration("runningDuration"),
                ImmutableSortedMap.copyOf(status.stringMap("controlledResources")), conditions.build());
    }

    private static ImmutableSortedMap<String, ImmutableSortedMap<PodPhase, Integer>> readTaskStatusCount(Fields status) {
        JsonNode node = status.get("taskStatusCount");
        ImmutableSortedMap.Builder<String, ImmutableSortedMap<PodPhase, Integer>> tasks = ImmutableSortedMap.naturalOrder();
        if (Fields.absent(node) || !node.isObject()) {
            return tasks.build();
        }
        for (Map.Entry<String, JsonNode> task : node.properties()) {
            Fields taskState = Fields.of(task.getValue(), "status.taskStatusCount." + task.getKey(), status.problems(), ImmutableSet.of("phase"));
            Map<PodPhase, Integer> phases = new EnumMap<>(PodPhase.class);
            JsonNode phaseNode = taskState.get("phase");
            if (phaseNode.isObject()) {
                phaseNode.properties().forEach(entry -> phases.put(PodPhase.fromWireName(entry.getKey()), entry.getValue().asInt()));
            }
            tasks.put(task.getKey(), ImmutableSortedMap.copyOf(phases));
        }
        return tasks.build();
    }
}
