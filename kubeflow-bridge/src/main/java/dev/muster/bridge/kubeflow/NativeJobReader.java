package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.bridge.kubeflow.NativeJob.ElasticPolicy;
import dev.muster.bridge.kubeflow.NativeJob.ReplicaRestartPolicy;
import dev.muster.bridge.kubeflow.NativeJob.ReplicaSpec;
import dev.muster.bridge.kubeflow.NativeJob.RendezvousSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads a TFJob or PyTorchJob (as JSON) into a {@link NativeJob}, with the defaults training operator
 * v1.9 sets on its copy of the job before it makes anything ({@code tensorflow_defaults.go},
 * {@code pytorch_defaults.go}, {@code defaulting_utils.go}), and the problems of its input: those
 * {@link TrainingJobReader} finds, an unknown restart policy, a replica without containers, a container's request or limit
 * that is not a quantity. A replica type with a problem is left out of {@link NativeJob#replicaSpecs()}.
 *
 * <p>Not done: the operator's renaming of replica types that differ only in case ({@code worker} to
 * {@code Worker}); the bridge reports such a type as unknown.
 */
public final class NativeJobReader {
    private NativeJobReader() {}

    /** The job read and every problem of its input (empty when it is good). */
    public record Read(NativeJob job, ImmutableList<FieldProblem> problems) {
        public Read {
            requireNonNull(job, "job is null");
            problems = ImmutableList.copyOf(problems);
        }
    }

    public static Read read(TrainingKind kind, JsonNode object) {
        TrainingJobReader.Read read = TrainingJobReader.read(kind, object);
        List<FieldProblem> problems = new ArrayList<>(read.problems());
        JsonNode spec = object.path("spec");
        JsonNode specs = spec.path(kind.replicaSpecsField());
        Map<String, ReplicaSpec> replicaSpecs = new TreeMap<>();
        read.job().replicas().forEach((type, replicas) -> replicaSpec(kind, type, replicas, specs.path(type), problems)
                .ifPresent(replicaSpec -> replicaSpecs.put(type, replicaSpec)));
        Optional<ElasticPolicy> elastic = Optional.empty();
        Optional<String> nprocPerNode = Optional.empty();
        boolean enableDynamicWorker = false;
        switch (kind) {
            case TFJOB -> enableDynamicWorker = spec.path("enableDynamicWorker").asBoolean(false);
            case PYTORCHJOB -> {
                elastic = elasticPolicy(spec.path("elasticPolicy"), read.job().replicas().getOrDefault("Worker", 0));
                nprocPerNode = text(spec.path("nprocPerNode"));
                // setDefaultNprocPerNode: "auto" unless the elastic policy gives nProcPerNode
                if (nprocPerNode.isEmpty() && elastic.flatMap(ElasticPolicy::processesPerNode).isEmpty()) {
                    nprocPerNode = Optional.of("auto");
                }
            }
        }
        NativeJob job = new NativeJob(read.job(), ImmutableSortedMap.copyOf(replicaSpecs), enableDynamicWorker, nprocPerNode, elastic);
        return new Read(job, ImmutableList.copyOf(problems));
    }

    private static Optional<ReplicaSpec> replicaSpec(TrainingKind kind, String type, int replicas, JsonNode node, List<FieldProblem> problems) {
        String field = "spec." + kind.replicaSpecsField() + "." + type;
        Optional<String> policyText = text(node.path("restartPolicy"));
        Optional<ReplicaRestartPolicy> policy = policyText.isEmpty() ? Optional.of(kind.defaultRestartPolicy())
                : policyText.flatMap(ReplicaRestartPolicy::of);
        if (policy.isEmpty()) {
            problems.add(new FieldProblem(field + ".restartPolicy", "unknown restart policy '" + policyText.orElseThrow()
                    + "' (known: Always, OnFailure, Never, ExitCode)"));
            return Optional.empty();
        }
        ObjectNode template = node.path("template").isObject() ? ((ObjectNode) node.path("template")).deepCopy()
                : JsonNodeFactory.instance.objectNode();
        JsonNode containers = template.path("spec").path("containers");
        if (!containers.isArray() || containers.isEmpty()) {
            problems.add(new FieldProblem(field + ".template.spec.containers", "a replica needs at least one container"));
            return Optional.empty();
        }
        int problemsBefore = problems.size();
        for (int index = 0; index < containers.size(); index++) {
            String resources = field + ".template.spec.containers[" + index + "].resources.";
            JsonNode container = containers.get(index).path("resources");
            TrainingJobReader.checkResourceList(container.path("requests"), resources + "requests", problems);
            TrainingJobReader.checkResourceList(container.path("limits"), resources + "limits", problems);
        }
        if (problems.size() > problemsBefore) {
            return Optional.empty();
        }
        addDefaultPort(kind, (ArrayNode) containers);
        return Optional.of(new ReplicaSpec(replicas, policy.get(), template));
    }

    /** setDefaultPort: the kind's port on the default container, or on the first when none has its name. */
    private static void addDefaultPort(TrainingKind kind, ArrayNode containers) {
        ObjectNode container = (ObjectNode) containers.get(0);
        for (JsonNode candidate : containers) {
            if (kind.defaultContainerName().equals(candidate.path("name").asText())) {
                container = (ObjectNode) candidate;
                break;
            }
        }
        for (JsonNode port : container.path("ports")) {
            if (kind.defaultPortName().equals(port.path("name").asText())) {
                return;
            }
        }
        ArrayNode ports = container.path("ports").isArray() ? (ArrayNode) container.path("ports") : container.putArray("ports");
        ports.addObject().put("name", kind.defaultPortName()).put("containerPort", kind.defaultPort());
    }

    private static Optional<ElasticPolicy> elasticPolicy(JsonNode node, int workers) {
        if (!node.isObject()) {
            return Optional.empty();
        }
        Optional<Integer> min = integer(node.path("minReplicas"));
        Optional<Integer> max = integer(node.path("maxReplicas"));
        // setElasticPolicy: one bound given stands for the other; none, the Worker replicas for both
        int minReplicas = min.or(() -> max).orElse(workers);
        int maxReplicas = max.or(() -> min).orElse(workers);
        List<RendezvousSetting> conf = new ArrayList<>();
        for (JsonNode setting : node.path("rdzvConf")) {
            conf.add(new RendezvousSetting(setting.path("key").asText(""), setting.path("value").asText("")));
        }
        return Optional.of(new ElasticPolicy(minReplicas, maxReplicas, text(node.path("rdzvBackend")), integer(node.path("rdzvPort")),
                text(node.path("rdzvHost")), text(node.path("rdzvId")), ImmutableList.copyOf(conf), node.path("standalone").asBoolean(false),
                integer(node.path("nProcPerNode")), integer(node.path("maxRestarts"))));
    }

    private static Optional<Integer> integer(JsonNode node) {
        return node.isIntegralNumber() && node.canConvertToInt() ? Optional.of(node.intValue()) : Optional.empty();
    }

    private static Optional<String> text(JsonNode node) {
        return node.isTextual() && !node.asText().isEmpty() ? Optional.of(node.asText()) : Optional.empty();
    }
}
