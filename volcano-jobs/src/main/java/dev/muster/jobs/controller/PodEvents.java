package dev.muster.jobs.controller;

import dev.muster.engine.model.PodGroupPhase;
import dev.muster.jobs.JobEvent;
import dev.muster.jobs.PodPhase;
import dev.muster.jobs.TaskSpec;
import dev.muster.jobs.VolcanoJob;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns what the informers see into {@link JobRequest}s, as Volcano's pod and PodGroup handlers do.
 * The runtime calls these on every update and delete of a pod the job controls, and on every
 * PodGroup phase change, then reconciles the job with the request.
 */
public final class PodEvents {
    private PodEvents() {}

    /**
     * A pod changed from {@code before} to {@code after}; {@code observed} already holds {@code after}.
     * A pod that turned Failed is {@code PodFailed} (with the first container's exit code); the last
     * pod of a task to succeed is {@code TaskCompleted}; a running or pending pod whose task restarted
     * its containers {@code maxRetry} times is {@code TaskFailed}; a pod that just started running is
     * {@code PodRunning}, one that went back to pending {@code PodPending}; anything else, or a pod the
     * controller already killed, is a plain resync.
     */
    public static JobRequest onUpdate(VolcanoJob job, ObservedJob observed, ObservedPod before, ObservedPod after) {
        JobEvent event = JobEvent.OUT_OF_SYNC;
        OptionalInt exitCode = OptionalInt.empty();
        switch (after.phase()) {
            case FAILED -> {
                if (before.phase() != PodPhase.FAILED) {
                    event = JobEvent.POD_FAILED;
                    exitCode = after.exitCode();
                }
            }
            case SUCCEEDED -> {
                if (before.phase() != PodPhase.SUCCEEDED && taskCompleted(job, observed, after.task())) {
                    event = JobEvent.TASK_COMPLETED;
                }
            }
            case RUNNING, PENDING -> {
                if (taskFailed(job, observed, after.task())) {
                    event = JobEvent.TASK_FAILED;
                }
                if (before.phase() != after.phase()) {
                    event = after.phase() == PodPhase.RUNNING ? JobEvent.POD_RUNNING : JobEvent.POD_PENDING;
                }
            }
            case UNKNOWN -> event = JobEvent.OUT_OF_SYNC;
        }
        if (after.outOfSync()) {
            event = JobEvent.OUT_OF_SYNC;
        }
        return new JobRequest(event, Optional.empty(), Optional.of(after.task()), Optional.of(after.name()), exitCode,
                OptionalInt.of(after.jobVersion()));
    }

    /** A pod of the job was deleted: {@code PodEvicted}, unless the controller deleted it itself. */
    public static JobRequest onDelete(ObservedPod pod) {
        return JobRequest.podEvent(pod.outOfSync() ? JobEvent.OUT_OF_SYNC : JobEvent.POD_EVICTED, pod.task(), pod.name(), pod.jobVersion());
    }

    /** The job's PodGroup changed phase: {@code Unknown} (part of the gang runs, the rest cannot be placed) or a resync. */
    public static JobRequest onPodGroupPhase(PodGroupPhase phase) {
        return phase == PodGroupPhase.UNKNOWN ? JobRequest.jobEvent(JobEvent.JOB_UNKNOWN) : JobRequest.sync();
    }

    private static boolean taskCompleted(VolcanoJob job, ObservedJob observed, String task) {
        int replicas = job.spec().task(task).map(TaskSpec::replicas).orElse(0);
        long succeeded = observed.podsOf(task).stream().filter(pod -> pod.phase() == PodPhase.SUCCEEDED).count();
        return replicas > 0 && succeeded >= replicas;
    }

    /** Volcano's rule: container restarts of the task's running and pending pods reach its maxRetry; -1 means no limit. */
    private static boolean taskFailed(VolcanoJob job, ObservedJob observed, String task) {
        Optional<TaskSpec> spec = job.spec().task(task);
        if (spec.isEmpty() || spec.get().replicas() == 0 || spec.get().maxRetry() == -1) {
            return false;
        }
        int restarts = observed.podsOf(task).stream()
                .filter(pod -> pod.phase() == PodPhase.RUNNING || pod.phase() == PodPhase.PENDING)
                .mapToInt(ObservedPod::restarts).sum();
        return restarts >= spec.get().maxRetry();
    }
}
