package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import dev.muster.bridge.kubeflow.NativeJob.ElasticPolicy;
import dev.muster.bridge.kubeflow.NativeJob.ReplicaSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What training operator v1.9 adds to a PyTorchJob's replica ({@code pkg/controller.v1/pytorch/envvar.go},
 * {@code master.go}, {@code elastic.go}, {@code initcontainer.go}): to every container, in this order,
 * {@code PYTHONUNBUFFERED}; with a Master, {@code MASTER_PORT}, {@code PET_MASTER_PORT}, {@code MASTER_ADDR},
 * {@code PET_MASTER_ADDR} ({@code <job>-master-0}), {@code WORLD_SIZE} (replicas times a numeric
 * {@code nprocPerNode}, else times 1), {@code RANK} and {@code PET_NODE_RANK} (a Worker's index plus one);
 * {@code PET_NPROC_PER_NODE}; then the elastic policy's {@code PET_*} or, without one, {@code PET_NNODES}.
 * A Worker of a job with a Master also gets the init container {@code init-pytorch}, which waits for the
 * master's name to resolve.
 */
final class PyTorchEnvironment {
    /** The operator's defaults: {@code --pytorch-init-container-image}, {@code --pytorch-init-container-max-tries}. */
    static final String INIT_CONTAINER_IMAGE = "alpine:3.10";
    static final int INIT_CONTAINER_MAX_TRIES = 100;
    private static final String MASTER = "Master";
    private static final String WORKER = "Worker";

    /** One environment variable. */
    record Variable(String name, String value) {
        Variable {
            requireNonNull(name, "name is null");
            requireNonNull(value, "value is null");
        }
    }

    private PyTorchEnvironment() {}

    /** The variables for every container of replica {@code index} of {@code type}, in the operator's order. */
    static ImmutableList<Variable> of(NativeJob job, String type, int index) {
        List<Variable> env = new ArrayList<>();
        env.add(new Variable("PYTHONUNBUFFERED", "1"));
        int total = job.totalReplicas();
        if (job.replicaSpecs().containsKey(MASTER)) {
            String masterPort = Integer.toString(port(job, MASTER).orElseThrow());
            String masterAddress = NativeReplicaPlanner.replicaName(job.job().name(), MASTER, 0);
            env.add(new Variable("MASTER_PORT", masterPort));
            env.add(new Variable("PET_MASTER_PORT", masterPort));
            env.add(new Variable("MASTER_ADDR", masterAddress));
            env.add(new Variable("PET_MASTER_ADDR", masterAddress));
            int rank = type.equals(WORKER) ? index + 1 : index;
            env.add(new Variable("WORLD_SIZE", Integer.toString(total * numericProcessesPerNode(job))));
            env.add(new Variable("RANK", Integer.toString(rank)));
            env.add(new Variable("PET_NODE_RANK", Integer.toString(rank)));
        }
        job.nprocPerNode().ifPresent(value -> env.add(new Variable("PET_NPROC_PER_NODE", value)));
        if (job.elasticPolicy().isPresent()) {
            env.addAll(elastic(job, job.elasticPolicy().get()));
        } else {
            env.add(new Variable("PET_NNODES", Integer.toString(total)));
        }
        return ImmutableList.copyOf(env);
    }

    private static List<Variable> elastic(NativeJob job, ElasticPolicy policy) {
        List<Variable> env = new ArrayList<>();
        String host = policy.rdzvHost().orElse(job.job().name() + "-worker-0");
        int port = policy.rdzvPort().orElseGet(() -> port(job, WORKER).orElseThrow());
        env.add(new Variable("PET_RDZV_ENDPOINT", host + ":" + port));
        env.add(new Variable("PET_RDZV_BACKEND", policy.rdzvBackend().orElse("c10d")));
        // the defaults always give both bounds, so this is the operator's "min:max" form
        env.add(new Variable("PET_NNODES", policy.minReplicas() + ":" + policy.maxReplicas()));
        policy.maxRestarts().ifPresent(value -> env.add(new Variable("PET_MAX_RESTARTS", Integer.toString(value))));
        policy.processesPerNode().ifPresent(value -> env.add(new Variable("PET_NPROC_PER_NODE", Integer.toString(value))));
        policy.rdzvId().ifPresent(value -> env.add(new Variable("PET_RDZV_ID", value)));
        if (!policy.rdzvConf().isEmpty()) {
            env.add(new Variable("PET_RDZV_CONF", policy.rdzvConf().stream()
                    .map(setting -> setting.key() + "=" + setting.value()).collect(Collectors.joining(","))));
        }
        if (policy.standalone()) {
            env.add(new Variable("PET_STANDALONE", ""));
        }
        return env;
    }

    /** getNprocPerNodeInt: {@code nprocPerNode} when it is a number, else 1 ({@code auto}, {@code gpu}, ...). */
    private static int numericProcessesPerNode(NativeJob job) {
        try {
            return job.nprocPerNode().map(Integer::parseInt).orElse(1);
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** getPortFromPyTorchJob: the port named {@code pytorchjob-port} of container {@code pytorch}; the operator fails without one. */
    static Optional<Integer> port(NativeJob job, String type) {
        ReplicaSpec spec = job.replicaSpecs().get(type);
        if (spec == null) {
            return Optional.empty();
        }
        for (JsonNode container : spec.template().path("spec").path("containers")) {
            if (job.kind().defaultContainerName().equals(container.path("name").asText())) {
                for (JsonNode port : container.path("ports")) {
                    if (job.kind().defaultPortName().equals(port.path("name").asText())) {
                        return Optional.of(port.path("containerPort").asInt());
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** The init containers the operator appends to a replica: {@code init-pytorch} on a Worker of a job with a Master. */
    static ImmutableList<ObjectNode> initContainers(NativeJob job, String type) {
        if (!type.equals(WORKER) || !job.replicaSpecs().containsKey(MASTER)) {
            return ImmutableList.of();
        }
        String master = NativeReplicaPlanner.replicaName(job.job().name(), MASTER, 0);
        ObjectNode container = JsonNodeFactory.instance.objectNode().put("name", "init-pytorch").put("image", INIT_CONTAINER_IMAGE)
                .put("imagePullPolicy", "IfNotPresent");
        ObjectNode resources = container.putObject("resources");
        resources.putObject("limits").put("cpu", "100m").put("memory", "20Mi");
        resources.putObject("requests").put("cpu", "50m").put("memory", "10Mi");
        container.putArray("command").add("sh").add("-c").add("err=1;for i in $(seq " + INIT_CONTAINER_MAX_TRIES + "); do if nslookup "
                + master + "; then err=0 && break; fi;echo waiting for master; sleep 2; done; exit $err");
        return ImmutableList.of(container);
    }
}
