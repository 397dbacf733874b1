package dev.muster.engine.cache;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** Converts a {@code v1} Pod into a {@link Task}, as Volcano's {@code NewTaskInfo} does; a bad Pod is left out. */
final class PodConverter {
    /** Volcano's task priority when the pod has no {@code spec.priority}. */
    static final int DEFAULT_PRIORITY = 1;

    private final ImmutableSet<String> schedulerNames;

    PodConverter(ImmutableSet<String> schedulerNames) {
        this.schedulerNames = requireNonNull(schedulerNames, "schedulerNames is null");
    }

    Optional<ConvertedPod> convert(ManifestObject object, Problems problems) {
        FieldReader reader = new FieldReader(object, problems);
        boolean ours = schedulerNames.contains(reader.string("spec.schedulerName").orElse(SchedulingApi.DEFAULT_SCHEDULER_NAME));
        Optional<NodeName> node = reader.string("spec.nodeName").filter(name -> !name.isEmpty()).map(NodeName::new);
        if (!ours && node.isEmpty()) {
            // another scheduler's pending pod holds nothing we need to know about
            return Optional.empty();
        }
        ImmutableMap<String, String> labels = reader.labels("metadata.labels");
        ImmutableMap<String, String> annotations = reader.stringMap("metadata.annotations");
        String namespace = object.namespace();
        String uid = reader.string("metadata.uid").filter(text -> !text.isEmpty()).orElse(namespace + "-" + object.name());
        Optional<String> groupField = Optional.empty();
        Optional<String> schedulingGroup = schedulingGroup(reader);
        JobId job;
        if (!annotations.getOrDefault(SchedulingApi.GROUP_NAME_ANNOTATION, "").isEmpty()) {
            groupField = Optional.of("metadata.annotations." + SchedulingApi.GROUP_NAME_ANNOTATION);
            job = new JobId(namespace, annotations.get(SchedulingApi.GROUP_NAME_ANNOTATION));
        } else if (!labels.getOrDefault(SchedulingApi.COSCHEDULING_GROUP_LABEL, "").isEmpty()) {
            groupField = Optional.of("metadata.labels." + SchedulingApi.COSCHEDULING_GROUP_LABEL);
            job = new JobId(namespace, labels.get(SchedulingApi.COSCHEDULING_GROUP_LABEL));
        } else if (schedulingGroup.isPresent()) {
            groupField = Optional.of(SchedulingApi.SCHEDULING_GROUP_FIELD);
            job = new JobId(namespace, schedulingGroup.get());
        } else if ("true".equals(annotations.get(SchedulingApi.GANG_ANNOTATION))) {
            // held until a bridge names its gang; a job of this name never exists
            groupField = Optional.of(ConvertedPod.AWAITS_GANG_FIELD);
            job = new JobId(namespace, "gang-of-" + uid);
        } else {
            job = new JobId(namespace, "podgroup-" + controllerUid(reader).orElse(uid));
        }
        if (schedulingGroup.isPresent() && !schedulingGroup.get().equals(job.name())) {
            reader.warning(SchedulingApi.SCHEDULING_GROUP_FIELD, "names PodGroup '" + schedulingGroup.get() + "', but "
                    + groupField.get() + " names '" + job.name() + "', which comes first; the pod joins '" + job.name() + "'");
        }
        QueueName queue = annotatedQueue(annotations);
        String role = Optional.ofNullable(annotations.get(SchedulingApi.TASK_SPEC)).orElse(labels.getOrDefault(SchedulingApi.TASK_SPEC, ""));
        int priority = priority(reader, annotations);
        String priorityClassName = reader.string("spec.priorityClassName").orElse("");
        PodResources.Requests requests = PodResources.read(reader);
        TaskStatus status = status(reader, node.isPresent());
        Instant created = reader.instant("metadata.creationTimestamp").orElse(Instant.EPOCH);
        boolean preemptable = preemptable(reader, annotations, labels);
        boolean preemptionNever = reader.string("spec.preemptionPolicy").orElse("").equals("Never");
        boolean gated = !reader.array("spec.schedulingGates").isEmpty();
        Placement placement = PlacementConverter.read(reader);
        if (reader.hasErrors()) {
            return Optional.empty();
        }
        Task task = new Task(new TaskId(namespace, object.name()), uid, job, role, priority, priorityClassName,
                requests.request(), requests.initRequest(), status, node, created, preemptable, preemptionNever, gated,
                placement, labels, annotations, reader.instant("status.startTime"));
        return Optional.of(new ConvertedPod(object, task, ours, groupField, queue));
    }

    /** The queue Volcano's {@code scheduling.volcano.sh/queue-name} annotation names, else {@code default}. */
    static QueueName annotatedQueue(Map<String, String> annotations) {
        return Optional.ofNullable(annotations.get(SchedulingApi.QUEUE_NAME_ANNOTATION))
                .filter(name -> !name.isEmpty())
                .map(QueueName::new)
                .orElse(Queue.DEFAULT);
    }

    /**
     * The pod's Workload API PodGroup ({@code spec.schedulingGroup.podGroupName}, Kubernetes 1.36). The
     * field is a union whose one member is that name: a group that names none is an error.
     */
    private static Optional<String> schedulingGroup(FieldReader reader) {
        JsonNode group = reader.at("spec.schedulingGroup");
        if (FieldReader.absent(group) || !reader.isMapOrAbsent(group, "spec.schedulingGroup")) {
            return Optional.empty();
        }
        Optional<String> name = reader.string(group.path("podGroupName"), SchedulingApi.SCHEDULING_GROUP_FIELD);
        if (name.isEmpty() && FieldReader.absent(group.path("podGroupName"))) {
            reader.error("spec.schedulingGroup", "names no group: podGroupName is required (known members: podGroupName)");
        } else if (name.isPresent()) {
            Optional<String> problem = KubernetesNames.subdomain(name.get());
            if (problem.isPresent()) {
                reader.error(SchedulingApi.SCHEDULING_GROUP_FIELD, problem.get());
                return Optional.empty();
            }
        }
        return name;
    }

    /** Volcano's podgroup controller names an automatic group after the pod's controller, if it has one. */
    private static Optional<String> controllerUid(FieldReader reader) {
        for (JsonNode owner : reader.array("metadata.ownerReferences")) {
            if (owner.path("controller").asBoolean(false) && !owner.path("uid").asText("").isEmpty()) {
                return Optional.of(owner.path("uid").asText());
            }
        }
        return Optional.empty();
    }

    private static int priority(FieldReader reader, ImmutableMap<String, String> annotations) {
        int priority = reader.integer("spec.priority").orElse(DEFAULT_PRIORITY);
        String override = annotations.get(SchedulingApi.TASK_PRIORITY);
        if (override != null) {
            try {
                return Integer.parseInt(override.trim());
            } catch (NumberFormatException e) {
                reader.warning("metadata.annotations." + SchedulingApi.TASK_PRIORITY, "'" + override + "' is not an integer; ignored");
            }
        }
        return priority;
    }

    /**
     * Volcano's {@code getTaskStatus}. A pod without {@code status.phase} is Pending, as the API server
     * makes every new pod; an unknown phase is read as Unknown.
     */
    private static TaskStatus status(FieldReader reader, boolean onNode) {
        boolean deleting = !FieldReader.absent(reader.at("metadata.deletionTimestamp"));
        String phase = reader.string("status.phase").filter(text -> !text.isEmpty()).orElse("Pending");
        return switch (phase) {
            case "Running" -> deleting ? TaskStatus.RELEASING : TaskStatus.RUNNING;
            case "Pending" -> deleting ? TaskStatus.RELEASING : onNode ? TaskStatus.BOUND : TaskStatus.PENDING;
            case "Succeeded" -> TaskStatus.SUCCEEDED;
            case "Failed" -> TaskStatus.FAILED;
            case "Unknown" -> TaskStatus.UNKNOWN;
            default -> {
                reader.warning("status.phase",
                        "'" + phase + "' is not a pod phase (Pending, Running, Succeeded, Failed, Unknown); read as Unknown");
                yield TaskStatus.UNKNOWN;
            }
        };
    }

    /** {@code volcano.sh/preemptable}: the annotation, else the label, else true; a value that is not a boolean means false. */
    private static boolean preemptable(
            FieldReader reader, ImmutableMap<String, String> annotations, ImmutableMap<String, String> labels) {
        if (annotations.containsKey(SchedulingApi.PREEMPTABLE)) {
            return parseGoBool(reader, "metadata.annotations." + SchedulingApi.PREEMPTABLE, annotations.get(SchedulingApi.PREEMPTABLE));
        }
        if (labels.containsKey(SchedulingApi.PREEMPTABLE)) {
            return parseGoBool(reader, "metadata.labels." + SchedulingApi.PREEMPTABLE, labels.get(SchedulingApi.PREEMPTABLE));
        }
        return true;
    }

    /** Go's {@code strconv.ParseBool}, which Volcano uses; what it rejects counts as false, as in Volcano. */
    private static boolean parseGoBool(FieldReader reader, String path, String text) {
        return switch (text) {
            case "1", "t", "T", "TRUE", "true", "True" -> true;
            case "0", "f", "F", "FALSE", "false", "False" -> false;
            default -> {
                reader.warning(path, "'" + text + "' is not a boolean; read as false, as Volcano does");
                yield false;
            }
        };
    }
}
