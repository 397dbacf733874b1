package dev.muster.jobs.controller;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.jobs.PodPhase;
import dev.muster.jobs.VolcanoJob;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A stand-in for the runtime: applies {@link JobPlan}s to an in-memory cluster (pods, PodGroup,
 * objects) and turns pod changes into requests with {@link PodEvents}, the way the informer-fed
 * controller will. Not thread-safe.
 */
final class TestingJobRuntime {
    private final JobReconciler reconciler;
    private VolcanoJob job;
    private final Map<String, ObservedPod> pods = new LinkedHashMap<>();
    private final Map<String, HasMetadata> objects = new LinkedHashMap<>();
    private final List<PlanEvent> events = new ArrayList<>();
    private Optional<PodGroupPhase> podGroup = Optional.empty();
    private boolean deleted;

    TestingJobRuntime(JobReconciler reconciler, VolcanoJob job) {
        this.reconciler = reconciler;
        this.job = job;
    }

    VolcanoJob job() {
        return job;
    }

    boolean deleted() {
        return deleted;
    }

    Map<String, ObservedPod> pods() {
        return pods;
    }

    Map<String, HasMetadata> objects() {
        return objects;
    }

    List<PlanEvent> events() {
        return events;
    }

    ObservedJob observed() {
        return new ObservedJob(ImmutableList.copyOf(pods.values()), podGroup);
    }

    /** The scheduler admitted the PodGroup. */
    void admit() {
        podGroup = Optional.of(PodGroupPhase.INQUEUE);
        handle(PodEvents.onPodGroupPhase(PodGroupPhase.INQUEUE), Instant.EPOCH);
    }

    /** The kubelet moved a pod to a phase (a failed pod exits with {@code exitCode}). */
    void podPhase(String name, PodPhase phase, OptionalInt exitCode, Instant now) {
        ObservedPod before = pods.get(name);
        ObservedPod after = new ObservedPod(before.name(), before.task(), phase, false, before.outOfSync(), phase == PodPhase.RUNNING,
                before.restarts(), exitCode, before.jobVersion());
        pods.put(name, after);
        handle(PodEvents.onUpdate(job, observed(), before, after), now);
    }

    /** Deletions the controller asked for have finished. */
    void finishDeletions(Instant now) {
        List<ObservedPod> gone = pods.values().stream().filter(ObservedPod::deleting).toList();
        gone.forEach(pod -> pods.remove(pod.name()));
        gone.forEach(pod -> handle(PodEvents.onDelete(pod), now));
    }

    void sync(Instant now) {
        handle(JobRequest.sync(), now);
    }

    void handle(JobRequest request, Instant now) {
        if (deleted) {
            return;
        }
        JobPlan plan = reconciler.reconcile(job, observed(), request, now);
        if (plan.deleteJob()) {
            deleted = true;
            pods.clear();
            objects.clear();
            return;
        }
        if (plan.deletePodGroup()) {
            podGroup = Optional.empty();
        } else if (plan.podGroup().isPresent() && podGroup.isEmpty()) {
            podGroup = Optional.of(PodGroupPhase.PENDING);
        }
        plan.objectsToCreate().forEach(object -> objects.putIfAbsent(object.getKind() + "/" + object.getMetadata().getName(), object));
        plan.objectsToApply().forEach(object -> objects.put(object.getKind() + "/" + object.getMetadata().getName(), object));
        plan.objectsToDelete().forEach(ref -> objects.remove(ref.kind() + "/" + ref.name()));
        for (String name : plan.podsToDelete()) {
            ObservedPod pod = pods.get(name);
            pods.put(name, new ObservedPod(name, pod.task(), pod.phase(), true, true, pod.containersReady(), pod.restarts(), pod.exitCode(),
                    pod.jobVersion()));
        }
        for (Pod pod : plan.podsToCreate()) {
            Map<String, String> annotations = pod.getMetadata().getAnnotations();
            pods.put(pod.getMetadata().getName(), new ObservedPod(pod.getMetadata().getName(), annotations.get(SchedulingApi.TASK_SPEC),
                    PodPhase.PENDING, false, false, false, 0, OptionalInt.empty(), Integer.parseInt(annotations.get(SchedulingApi.JOB_VERSION))));
        }
        plan.status().ifPresent(status -> job = job.withStatus(status));
        events.addAll(plan.events());
    }
}
