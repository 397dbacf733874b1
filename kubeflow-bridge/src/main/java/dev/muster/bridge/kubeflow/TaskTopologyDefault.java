package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import java.util.Optional;

/**
 * The task topology the bridge gives a PS/Worker TFJob whose user gave none: each parameter server
 * packed on a node with workers, for the {@code task-topology} plugin. The operator's pods carry
 * their replica type, lower-cased, as {@code volcano.sh/task-spec} on the Volcano path; its PodGroup
 * takes the job's annotations when it is made, so a user's own {@code volcano.sh/task-topology-*}
 * annotations on the TFJob reach the PodGroup and this default stays out of their way.
 *
 * <ul>
 *   <li>{@code volcano.sh/task-topology-affinity: ps,worker}: a ps and workers prefer one node;
 *   <li>with more than one PS, also {@code volcano.sh/task-topology-anti-affinity: ps}: the plugin
 *       would otherwise gather every PS and every worker in one bucket; apart, each PS gets a bucket
 *       and the workers are shared among them, as Volcano's plugin splits them.
 * </ul>
 */
final class TaskTopologyDefault {
    static final String AFFINITY = "volcano.sh/task-topology-affinity";
    static final String ANTI_AFFINITY = "volcano.sh/task-topology-anti-affinity";
    static final String TASK_ORDER = "volcano.sh/task-topology-task-order";
    static final String PARAMETER_SERVER = "PS";
    static final String WORKER = "Worker";

    private TaskTopologyDefault() {}

    /**
     * The annotations to add to the job's Volcano PodGroup; empty when the job is not a TFJob with
     * PS and Worker replicas, when the PodGroup is the bridge's mirror (whose pods the operator gives no
     * {@code volcano.sh/task-spec}) or when the PodGroup already has any task-topology annotation.
     */
    static ImmutableMap<String, String> annotations(TrainingJob job, Optional<PodGroupView> volcano) {
        requireNonNull(job, "job is null");
        requireNonNull(volcano, "volcano is null");
        int parameterServers = job.replicas().getOrDefault(PARAMETER_SERVER, 0);
        if (job.kind() != TrainingKind.TFJOB || parameterServers == 0 || job.replicas().getOrDefault(WORKER, 0) == 0
                || volcano.isEmpty() || volcano.get().mirror() || volcano.get().hasTaskTopology()) {
            return ImmutableMap.of();
        }
        if (parameterServers == 1) {
            return ImmutableMap.of(AFFINITY, "ps,worker");
        }
        return ImmutableMap.of(AFFINITY, "ps,worker", ANTI_AFFINITY, "ps");
    }
}
