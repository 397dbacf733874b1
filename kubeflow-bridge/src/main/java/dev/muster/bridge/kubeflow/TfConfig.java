package dev.muster.bridge.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import dev.muster.bridge.kubeflow.NativeJob.ReplicaSpec;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code TF_CONFIG} of a TFJob's replica as training operator v1.9 writes it
 * ({@code pkg/controller.v1/tensorflow/tensorflow.go}): the cluster, each replica type in lower case
 * (in name order, as Go writes a map) to its replicas' addresses {@code <job>-<type>-<i>.<namespace>.svc:<port>},
 * the task's type and index, and {@code "environment": "cloud"}; with {@code enableDynamicWorker} the
 * sparse form (a worker sees itself and the parameter servers, a parameter server itself), without
 * environment. A job of one replica is not distributed and gets none.
 *
 * <p>Not done: the operator's {@code CUSTOM_CLUSTER_DOMAIN} (its own environment variable, appended to
 * every address); native mode has no such setting yet.
 */
final class TfConfig {
    static final String ENV = "TF_CONFIG";
    private static final ObjectMapper JSON = new ObjectMapper();

    private TfConfig() {}

    /** The value of {@code TF_CONFIG} for replica {@code index} of {@code type}, empty when the job is not distributed. */
    static Optional<String> of(NativeJob job, String type, int index) {
        if (job.totalReplicas() == 1) {
            return Optional.empty();
        }
        String taskType = lower(type);
        ObjectNode config = JSON.createObjectNode();
        ObjectNode cluster = config.putObject("cluster");
        if (job.enableDynamicWorker()) {
            ImmutableList<String> parameterServers = addresses(job, "PS");
            ObjectNode workers = cluster.putObject("worker");
            ArrayNode ps = cluster.putArray("ps");
            if (taskType.equals("ps")) {
                ps.add(parameterServers.get(index));
            } else if (taskType.equals("worker")) {
                parameterServers.forEach(ps::add);
                workers.put(Integer.toString(index), addresses(job, type).get(index));
            }
        } else {
            // the replica types by their lower-case name: the order of Go's encoding of a map
            job.replicaSpecs().keySet().stream().sorted((a, b) -> lower(a).compareTo(lower(b)))
                    .forEach(replicaType -> addresses(job, replicaType).forEach(cluster.putArray(lower(replicaType))::add));
        }
        config.putObject("task").put("type", taskType).put("index", index);
        if (!job.enableDynamicWorker()) {
            config.put("environment", "cloud");
        }
        return Optional.of(config.toString());
    }

    private static ImmutableList<String> addresses(NativeJob job, String type) {
        ReplicaSpec spec = job.replicaSpecs().get(type);
        if (spec == null) {
            return ImmutableList.of();
        }
        int port = port(job.kind(), spec.template());
        ImmutableList.Builder<String> addresses = ImmutableList.builder();
        for (int i = 0; i < spec.replicas(); i++) {
            addresses.add(NativeReplicaPlanner.replicaName(job.job().name(), type, i) + "." + job.job().namespace() + ".svc:" + port);
        }
        return addresses.build();
    }

    /** GetPortFromTFJob: the port named {@code tfjob-port} of container {@code tensorflow}, else 2222. */
    private static int port(TrainingKind kind, ObjectNode template) {
        for (JsonNode container : template.path("spec").path("containers")) {
            if (kind.defaultContainerName().equals(container.path("name").asText())) {
                for (JsonNode port : container.path("ports")) {
                    if (kind.defaultPortName().equals(port.path("name").asText())) {
                        return port.path("containerPort").asInt();
                    }
                }
            }
        }
        return kind.defaultPort();
    }

    static String lower(String type) {
        return type.toLowerCase(Locale.ROOT);
    }
}
