package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;
import java.util.Optional;

/**
 * What native mode reads of one pod of a job: its replica type (in lower case, the label's) and index, its
 * phase, the default container's exit code once terminated, the restart count of all its containers, and
 * whether it is being deleted.
 */
public record ReplicaPod(String name, String type, int index, String phase, Optional<Integer> exitCode, int restarts, boolean deleting) {
    public ReplicaPod {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(phase, "phase is null");
        requireNonNull(exitCode, "exitCode is null");
    }

    /** The pod's view, or empty for a pod without a readable replica-type and replica-index label. */
    public static Optional<ReplicaPod> of(Pod pod, TrainingKind kind) {
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        String type = labels.get(KubeflowApi.REPLICA_TYPE_LABEL);
        String index = labels.get(KubeflowApi.REPLICA_INDEX_LABEL);
        if (type == null || index == null || !index.matches("[0-9]{1,9}")) {
            return Optional.empty();
        }
        String phase = pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase();
        Optional<Integer> exitCode = Optional.empty();
        int restarts = 0;
        if (pod.getStatus() != null) {
            for (ContainerStatus status : pod.getStatus().getContainerStatuses()) {
                restarts += status.getRestartCount() == null ? 0 : status.getRestartCount();
                if (kind.defaultContainerName().equals(status.getName()) && status.getState() != null
                        && status.getState().getTerminated() != null) {
                    exitCode = Optional.ofNullable(status.getState().getTerminated().getExitCode());
                }
            }
            for (ContainerStatus status : pod.getStatus().getInitContainerStatuses()) {
                restarts += status.getRestartCount() == null ? 0 : status.getRestartCount();
            }
        }
        return Optional.of(new ReplicaPod(pod.getMetadata().getName(), type, Integer.parseInt(index), phase, exitCode, restarts,
                pod.getMetadata().getDeletionTimestamp() != null));
    }
}
