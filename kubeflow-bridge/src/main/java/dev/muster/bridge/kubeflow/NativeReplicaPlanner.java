package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import dev.muster.bridge.kubeflow.NativeJob.ReplicaSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Native mode's plan of a TFJob's or PyTorchJob's replicas: the pods and headless Services training
 * operator v1.9 creates for it ({@code createNewPod} in {@code pkg/controller.v1/common/pod.go},
 * {@code CreateNewService} in {@code service.go}), made without the operator. Pure: the same job gives
 * the same objects, and nothing is read or written.
 *
 * <p>Per replica type and index {@code i}, one pod and one Service named {@code <job>-<type in lower case>-<i>}.
 * The pod is the template with labels {@code training.kubeflow.org/operator-name}, {@code job-name},
 * {@code replica-type}, {@code replica-index} (and {@code job-role: master} on the master role: Chief or
 * Master, else Worker 0), the job as controller owner, the replica spec's restart policy
 * ({@code ExitCode} as {@code Never}), the kind's environment ({@link TfConfig}, {@link PyTorchEnvironment})
 * and the gang marks of {@link GangScheduling}. The Service selects the pod by the same labels but the
 * role, has {@code clusterIP: None} and the default container's ports.
 *
 * <p>A job with a problem gets nothing, where the operator makes what it can before the first error
 * (a replica type without the kind's container, say, whose Services it cannot make): native mode never
 * half-creates a job.
 */
public final class NativeReplicaPlanner {
    private static final ObjectMapper JSON = new ObjectMapper();

    private NativeReplicaPlanner() {}

    /** The objects to create for a job, or the problems why none are; pods and services are fresh objects the caller owns. */
    public record NativeReplicas(ImmutableList<Pod> pods, ImmutableList<Service> services, ImmutableList<FieldProblem> problems) {
        public NativeReplicas {
            pods = ImmutableList.copyOf(pods);
            services = ImmutableList.copyOf(services);
            problems = ImmutableList.copyOf(problems);
        }
    }

    public static NativeReplicas plan(NativeJobReader.Read read, GangScheduling gang) {
        requireNonNull(read, "read is null");
        requireNonNull(gang, "gang is null");
        NativeJob job = read.job();
        List<FieldProblem> problems = new ArrayList<>(read.problems());
        job.replicaSpecs().forEach((type, spec) -> {
            if (defaultContainer(job.kind(), spec.template()).isEmpty()) {
                problems.add(new FieldProblem("spec." + job.kind().replicaSpecsField() + "." + type + ".template.spec.containers",
                        "no container named '" + job.kind().defaultContainerName() + "', which gives the replicas' ports"));
            }
        });
        if (!problems.isEmpty()) {
            return new NativeReplicas(ImmutableList.of(), ImmutableList.of(), ImmutableList.copyOf(problems));
        }
        List<Pod> pods = new ArrayList<>();
        List<Service> services = new ArrayList<>();
        job.replicaSpecs().forEach((type, spec) -> {
            for (int index = 0; index < spec.replicas(); index++) {
                pods.add(convert(pod(job, type, index, spec, gang), Pod.class));
                services.add(convert(service(job, type, index, spec), Service.class));
            }
        });
        return new NativeReplicas(ImmutableList.copyOf(pods), ImmutableList.copyOf(services), ImmutableList.of());
    }

    /** GenGeneralName: {@code <job>-<type in lower case>-<index>}, any {@code /} as {@code -}. */
    public static String replicaName(String job, String type, int index) {
        return (job + "-" + TfConfig.lower(type) + "-" + index).replace('/', '-');
    }

    private static ObjectNode pod(NativeJob job, String type, int index, ReplicaSpec spec, GangScheduling gang) {
        ObjectNode template = spec.template();
        JsonNode templateMetadata = template.path("metadata");
        ObjectNode pod = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode metadata = metadata(pod, job, replicaName(job.job().name(), type, index));
        ObjectNode labels = metadata.putObject("labels");
        copyFields(templateMetadata.path("labels"), labels);
        labels(job, type, index).forEach(labels::put);
        if (isMasterRole(job, type, index)) {
            labels.put(KubeflowApi.JOB_ROLE_LABEL, "master");
        }
        ObjectNode annotations = metadata.putObject("annotations");
        copyFields(templateMetadata.path("annotations"), annotations);
        if (templateMetadata.path("finalizers").isArray()) {
            metadata.set("finalizers", templateMetadata.path("finalizers").deepCopy());
        }
        ObjectNode podSpec = template.path("spec").isObject() ? (ObjectNode) template.path("spec") : JSON.createObjectNode();
        addEnvironment(job, type, index, (ArrayNode) podSpec.path("containers"));
        if (job.kind() == TrainingKind.PYTORCHJOB) {
            ImmutableList<ObjectNode> initContainers = PyTorchEnvironment.initContainers(job, type);
            if (!initContainers.isEmpty()) {
                ArrayNode existing = podSpec.path("initContainers").isArray() ? (ArrayNode) podSpec.path("initContainers")
                        : podSpec.putArray("initContainers");
                initContainers.forEach(existing::add);
            }
        }
        podSpec.put("restartPolicy", spec.restartPolicy().podRestartPolicy());
        decorate(gang, job, type, podSpec, labels, annotations);
        pod.set("spec", podSpec);
        return pod;
    }

    private static void addEnvironment(NativeJob job, String type, int index, ArrayNode containers) {
        switch (job.kind()) {
            case TFJOB -> TfConfig.of(job, type, index).ifPresent(config -> defaultContainer(job.kind(), containers)
                    .ifPresent(container -> env(container).addObject().put("name", TfConfig.ENV).put("value", config)));
            case PYTORCHJOB -> {
                ImmutableList<PyTorchEnvironment.Variable> variables = PyTorchEnvironment.of(job, type, index);
                for (JsonNode container : containers) {
                    ArrayNode env = env((ObjectNode) container);
                    variables.forEach(variable -> env.addObject().put("name", variable.name()).put("value", variable.value()));
                }
            }
        }
    }

    private static void decorate(GangScheduling gang, NativeJob job, String type, ObjectNode podSpec, ObjectNode labels,
            ObjectNode annotations) {
        if (gang.path() == GangScheduling.Path.NONE) {
            return;
        }
        if (podSpec.path("schedulerName").asText("").isEmpty()) {
            podSpec.put("schedulerName", gang.schedulerName());
        }
        switch (gang.path()) {
            case NONE -> { }
            case VOLCANO -> annotations.put(GangScheduling.GROUP_NAME_ANNOTATION, job.job().name())
                    .put(GangScheduling.TASK_SPEC_ANNOTATION, TfConfig.lower(type));
            case SCHEDULER_PLUGINS -> labels.put(GangScheduling.POD_GROUP_LABEL, job.job().name());
        }
    }

    private static ObjectNode service(NativeJob job, String type, int index, ReplicaSpec spec) {
        ObjectNode service = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Service");
        ObjectNode metadata = metadata(service, job, replicaName(job.job().name(), type, index));
        ObjectNode labels = metadata.putObject("labels");
        labels(job, type, index).forEach(labels::put);
        ObjectNode serviceSpec = service.putObject("spec").put("clusterIP", "None");
        serviceSpec.set("selector", labels.deepCopy());
        // GetPortsFromJob keeps the last port of a name; the operator's order is a Go map's, ours the names'
        SortedMap<String, Integer> ports = new TreeMap<>();
        defaultContainer(job.kind(), spec.template()).ifPresent(container -> container.path("ports")
                .forEach(port -> ports.put(port.path("name").asText(""), port.path("containerPort").asInt())));
        ArrayNode servicePorts = serviceSpec.putArray("ports");
        ports.forEach((name, port) -> servicePorts.addObject().put("name", name).put("port", port));
        return service;
    }

    private static ObjectNode metadata(ObjectNode object, NativeJob job, String name) {
        ObjectNode metadata = object.putObject("metadata").put("name", name).put("namespace", job.job().namespace());
        metadata.putArray("ownerReferences").addObject().put("apiVersion", KubeflowApi.API_VERSION).put("kind", job.kind().kind())
                .put("name", job.job().name()).put("uid", job.job().uid()).put("controller", true).put("blockOwnerDeletion", true);
        return metadata;
    }

    /** GenLabels plus the replica's type and index: on pods, and the selector and labels of Services. */
    private static Map<String, String> labels(NativeJob job, String type, int index) {
        Map<String, String> labels = new TreeMap<>();
        labels.put(KubeflowApi.OPERATOR_NAME_LABEL, job.kind().controllerName());
        labels.put(KubeflowApi.JOB_NAME_LABEL, job.job().name().replace('/', '-'));
        labels.put(KubeflowApi.REPLICA_TYPE_LABEL, TfConfig.lower(type));
        labels.put(KubeflowApi.REPLICA_INDEX_LABEL, Integer.toString(index));
        return labels;
    }

    /** IsMasterRole: a TFJob's Chief or Master, a PyTorchJob's Master; without those, Worker 0. */
    static boolean isMasterRole(NativeJob job, String type, int index) {
        List<String> masters = job.kind() == TrainingKind.TFJOB ? List.of("Chief", "Master") : List.of("Master");
        if (masters.stream().anyMatch(job.replicaSpecs()::containsKey)) {
            return masters.contains(type);
        }
        return type.equals("Worker") && index == 0;
    }

    private static Optional<ObjectNode> defaultContainer(TrainingKind kind, ObjectNode template) {
        return defaultContainer(kind, template.path("spec").path("containers"));
    }

    private static Optional<ObjectNode> defaultContainer(TrainingKind kind, JsonNode containers) {
        for (JsonNode container : containers) {
            if (kind.defaultContainerName().equals(container.path("name").asText())) {
                return Optional.of((ObjectNode) container);
            }
        }
        return Optional.empty();
    }

    private static ArrayNode env(ObjectNode container) {
        return container.path("env").isArray() ? (ArrayNode) container.path("env") : container.putArray("env");
    }

    private static void copyFields(JsonNode from, ObjectNode to) {
        from.properties().forEach(entry -> to.set(entry.getKey(), entry.getValue().deepCopy()));
    }

    private static <T> T convert(ObjectNode object, Class<T> type) {
        try {
            return JSON.treeToValue(object, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("BUG: a planned " + type.getSimpleName() + " does not read as one: " + object, e);
        }
    }
}
