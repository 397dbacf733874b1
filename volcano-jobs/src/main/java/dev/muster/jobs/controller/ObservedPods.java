package dev.muster.jobs.controller;

import dev.muster.engine.api.SchedulingApi;
import dev.muster.jobs.PodPhase;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** Reads what the controller needs from a fabric8 Pod the informer delivers; fabric8's nulls stop here. */
public final class ObservedPods {
    private ObservedPods() {}

    /** The pod as a job's pod, or empty when it has no {@code volcano.sh/task-spec} annotation (not made by a job controller). */
    public static Optional<ObservedPod> of(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
        String task = annotations.get(SchedulingApi.TASK_SPEC);
        if (task == null) {
            return Optional.empty();
        }
        PodStatus status = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        PodPhase phase = PodPhase.fromWireName(status.getPhase() == null ? "" : status.getPhase());
        List<ContainerStatus> containers = status.getContainerStatuses();
        boolean ready = !containers.isEmpty() && containers.stream().allMatch(container -> Boolean.TRUE.equals(container.getReady()));
        int restarts = 0;
        for (ContainerStatus container : containers) {
            restarts += container.getRestartCount() == null ? 0 : container.getRestartCount();
        }
        for (ContainerStatus container : status.getInitContainerStatuses()) {
            restarts += container.getRestartCount() == null ? 0 : container.getRestartCount();
        }
        OptionalInt exitCode = OptionalInt.empty();
        if (!containers.isEmpty() && containers.get(0).getState() != null && containers.get(0).getState().getTerminated() != null
                && containers.get(0).getState().getTerminated().getExitCode() != null) {
            exitCode = OptionalInt.of(containers.get(0).getState().getTerminated().getExitCode());
        }
        int version;
        try {
            version = Integer.parseInt(annotations.getOrDefault(SchedulingApi.JOB_VERSION, "0"));
        } catch (NumberFormatException e) {
            version = 0;
        }
        return Optional.of(new ObservedPod(pod.getMetadata().getName(), task, phase, pod.getMetadata().getDeletionTimestamp() != null,
                annotations.containsKey(SchedulingApi.OUT_OF_SYNC), ready, restarts, exitCode, version));
    }
}
