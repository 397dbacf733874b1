package dev.muster.jobs.controller;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import dev.muster.jobs.PodPhase;
import java.util.OptionalInt;

/**
 * What the controller needs to know about one pod of a job, read by the runtime from the informer.
 *
 * @param task the {@code volcano.sh/task-spec} annotation
 * @param deleting the pod has a deletion timestamp
 * @param outOfSync the pod carries the {@code volcano.sh/out-of-sync} mark of an earlier kill
 * @param containersReady every container reports ready (what a {@code dependsOn} parent needs when running)
 * @param restarts the sum of the restart counts of its containers and init containers
 * @param exitCode the first container's exit code once it terminated
 * @param jobVersion the {@code volcano.sh/job-version} annotation
 */
public record ObservedPod(
        String name,
        String task,
        PodPhase phase,
        boolean deleting,
        boolean outOfSync,
        boolean containersReady,
        int restarts,
        OptionalInt exitCode,
        int jobVersion) {
    public ObservedPod {
        requireNonNull(name, "name is null");
        requireNonNull(task, "task is null");
        requireNonNull(phase, "phase is null");
        checkArgument(restarts >= 0, "pod %s: negative restarts %s", name, restarts);
        requireNonNull(exitCode, "exitCode is null");
    }

    /** A pod in a phase, not deleting, in sync, ready when running, without restarts, of version 0. */
    public static ObservedPod of(String name, String task, PodPhase phase) {
        return new ObservedPod(name, task, phase, false, false, phase == PodPhase.RUNNING, 0, OptionalInt.empty(), 0);
    }

    public ObservedPod withPhase(PodPhase newPhase) {
        return new ObservedPod(name, task, newPhase, deleting, outOfSync, newPhase == PodPhase.RUNNING, restarts, exitCode, jobVersion);
    }

    public ObservedPod deletingNow() {
        return new ObservedPod(name, task, phase, true, outOfSync, containersReady, restarts, exitCode, jobVersion);
    }

    public ObservedPod withRestarts(int count) {
        return new ObservedPod(name, task, phase, deleting, outOfSync, containersReady, count, exitCode, jobVersion);
    }

    public ObservedPod failedWith(int code) {
        return new ObservedPod(name, task, PodPhase.FAILED, deleting, outOfSync, false, restarts, OptionalInt.of(code), jobVersion);
    }
}
