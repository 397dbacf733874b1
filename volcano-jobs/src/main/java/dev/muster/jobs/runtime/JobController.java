package dev.muster.jobs.runtime;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.Sets;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.jobs.JobPhase;
import dev.muster.jobs.JobReadResult;
import dev.muster.jobs.PodPhase;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.VolcanoJobReader;
import dev.muster.jobs.controller.DelayedRequest;
import dev.muster.jobs.controller.JobPlan;
import dev.muster.jobs.controller.JobReconciler;
import dev.muster.jobs.controller.JobRequest;
import dev.muster.jobs.controller.ObjectRef;
import dev.muster.jobs.controller.ObservedJob;
import dev.muster.jobs.controller.ObservedPod;
import dev.muster.jobs.controller.ObservedPods;
import dev.muster.jobs.controller.PodEvents;
import dev.muster.jobs.controller.PodGroupFactory;
import dev.muster.runtime.controller.KeyedWorkQueue;
import dev.muster.runtime.controller.ObjectKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Volcano Job controller against the API server: reads a job, its pods and its PodGroup from
 * the informers (corrected by what it remembers of its own writes), reconciles one request, writes
 * the plan, and schedules the plan's delayed actions and requeue. Called by the work queue, one
 * request at a time per job.
 */
final class JobController {
    private static final Logger log = LoggerFactory.getLogger(JobController.class);
    /** The phases in which a job's plugin objects should exist: a killed job's were deleted with its pods. */
    private static final ImmutableSet<JobPhase> ACTIVE = Sets.immutableEnumSet(JobPhase.PENDING, JobPhase.RUNNING);

    private final VolcanoInformers informers;
    private final JobReconciler reconciler;
    private final JobPlanWriter writer;
    private final Clock clock;
    /** What is remembered per job, by uid. */
    private final Map<String, JobMemory> memories = new ConcurrentHashMap<>();

    JobController(VolcanoInformers informers, JobReconciler reconciler, JobPlanWriter writer, Clock clock) {
        this.informers = requireNonNull(informers, "informers is null");
        this.reconciler = requireNonNull(reconciler, "reconciler is null");
        this.writer = requireNonNull(writer, "writer is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Reconciles one request for the job {@code key}; what to do later goes back to {@code queue}. */
    void process(ObjectKey key, JobRequest request, KeyedWorkQueue<ObjectKey, JobRequest> queue) {
        Optional<GenericKubernetesResource> object = informers.job(key.namespace(), key.name());
        if (object.isEmpty()) {
            return;
        }
        ObjectNode tree = informers.tree(object.get(), VolcanoJob.API_VERSION, VolcanoJob.KIND);
        String uid = tree.path("metadata").path("uid").asText("");
        JobMemory memory = memory(uid);
        memory.status().ifPresent(status -> tree.set("status", status));
        JobReadResult<VolcanoJob> read = VolcanoJobReader.read(tree);
        VolcanoJob job = read.object().orElseThrow();
        memory.onRequest(request);
        ObservedJob observed = observe(job, memory);
        if (memory.takeObjectCheck() && read.problems().isEmpty() && job.status().phase().isPresent()
                && ACTIVE.contains(job.status().currentPhase())) {
            ImmutableSet<ObjectRef> missing = writer.missing(reconciler.pluginObjects(job));
            missing.forEach(gone -> memory.unapplied(gone.kind() + "/" + gone.name()));
            if (!missing.isEmpty()) {
                log.info("job={} plugin objects gone, making them again: {}", key, missing);
            }
            observed = observed.withMissingObjects(missing);
        }
        JobPlan plan = reconciler.reconcile(read, observed, request, clock.instant());
        log.debug("job={} request={} plan={}", key, request.event(), plan);
        JsonNode stored = tree.get("status");
        writer.apply(job, stored, plan, memory);
        for (DelayedRequest delayed : plan.delayed()) {
            memory.delay(delayed, queue.addAfter(key, delayed.request(), Duration.between(clock.instant(), delayed.notBefore())));
        }
        plan.requeueAfter().ifPresent(after -> queue.addAfter(key, JobRequest.sync(), after));
    }

    /** The next request for the job (a sync the caller queues) also looks for its plugin objects, and makes those gone again. */
    void resync(String uid) {
        memory(uid).checkObjectsNext();
    }

    /** The job is gone: forget it, and let nothing it delayed come back. */
    void jobDeleted(String uid) {
        JobMemory memory = memories.remove(uid);
        if (memory != null) {
            memory.forget();
        }
    }

    /** The job of a pod of ours as the informer has it, with the request a change of the pod makes. */
    Optional<JobRequest> podUpdated(ObjectKey key, Pod before, Pod after) {
        Optional<ObservedPod> previous = ObservedPods.of(before);
        Optional<ObservedPod> current = ObservedPods.of(after);
        Optional<VolcanoJob> job = job(key);
        if (previous.isEmpty() || current.isEmpty() || job.isEmpty()) {
            return Optional.empty();
        }
        JobMemory memory = memory(job.get().metadata().uid());
        ObservedPod now = memory.deletedByUs(after.getMetadata().getUid()) ? killed(current.get()) : current.get();
        return Optional.of(PodEvents.onUpdate(job.get(), observe(job.get(), memory), previous.get(), now));
    }

    /** The request a deleted pod makes: an eviction, unless the controller deleted it. */
    Optional<JobRequest> podDeleted(ObjectKey key, Pod pod) {
        Optional<ObservedPod> observed = ObservedPods.of(pod);
        if (observed.isEmpty()) {
            return Optional.empty();
        }
        String uid = pod.getMetadata().getUid();
        Optional<JobMemory> memory = VolcanoInformers.controller(pod, VolcanoJob.KIND)
                .map(owner -> memories.get(owner.getUid()));
        boolean ours = memory.isPresent() && memory.get().deletedByUs(uid);
        memory.ifPresent(known -> known.podGone(pod.getMetadata().getName(), uid));
        return Optional.of(PodEvents.onDelete(ours ? killed(observed.get()) : observed.get()));
    }

    private Optional<VolcanoJob> job(ObjectKey key) {
        return informers.job(key.namespace(), key.name())
                .flatMap(object -> VolcanoJobReader.read(informers.tree(object, VolcanoJob.API_VERSION, VolcanoJob.KIND)).object());
    }

    private JobMemory memory(String uid) {
        return memories.computeIfAbsent(uid, ignored -> new JobMemory());
    }

    /**
     * The job's pods (those it controls by uid) as the informer has them, with the pods the controller
     * deleted marked so and the pods it created and the informer has not shown yet added as Pending.
     */
    private ObservedJob observe(VolcanoJob job, JobMemory memory) {
        List<ObservedPod> pods = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Pod pod : informers.podsOfJob(job.namespace(), job.name())) {
            boolean owned = VolcanoInformers.controller(pod, VolcanoJob.KIND)
                    .filter(owner -> owner.getUid().equals(job.metadata().uid())).isPresent();
            Optional<ObservedPod> observed = ObservedPods.of(pod);
            if (!owned || observed.isEmpty()) {
                continue;
            }
            String uid = pod.getMetadata().getUid();
            seen.add(pod.getMetadata().getName());
            memory.created().computeIfPresent(pod.getMetadata().getName(), (name, created) -> created.uid().equals(uid) ? null : created);
            pods.add(memory.deletedByUs(uid) ? killed(observed.get()) : observed.get());
        }
        memory.created().forEach((name, created) -> {
            if (!seen.contains(name)) {
                pods.add(created.pod());
            }
        });
        Optional<PodGroupPhase> phase = informers.podGroup(job.namespace(), PodGroupFactory.podGroupName(job))
                .map(podGroup -> podGroupPhase(job, podGroup));
        return new ObservedJob(ImmutableList.copyOf(pods), phase);
    }

    private static PodGroupPhase podGroupPhase(VolcanoJob job, GenericKubernetesResource podGroup) {
        Object phase = podGroup.get("status", "phase");
        try {
            return PodGroupPhase.parse(phase == null ? "" : phase.toString());
        } catch (IllegalArgumentException e) {
            log.debug("job={}: PodGroup {}: {}", job.metadata().key(), podGroup.getMetadata().getName(), e.getMessage());
            return PodGroupPhase.PENDING;
        }
    }

    /** The pod as one the controller killed: deleting, and marked out of sync. */
    private static ObservedPod killed(ObservedPod pod) {
        return new ObservedPod(pod.name(), pod.task(), pod.phase(), true, true, pod.phase() == PodPhase.RUNNING && pod.containersReady(),
                pod.restarts(), pod.exitCode(), pod.jobVersion());
    }
}
