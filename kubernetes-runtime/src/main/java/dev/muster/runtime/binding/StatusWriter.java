package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.cache.CacheSnapshot;
import dev.muster.engine.cache.StoredObject;
import dev.muster.engine.framework.SessionResult.JobOutcome;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskStatus;
import dev.muster.runtime.binding.EventRecorder.Subject;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what a session concluded to Volcano PodGroups and Queues ({@code status}, by JSON merge patch:
 * of the PodGroup itself, as Volcano's CRD has no status subresource for it, and of the Queue's
 * {@code /status} subresource) and posts Events: on each object that fails validation
 * ({@link ValidationEvents}); on a PodGroup and its pending pods when its Unschedulable message changes
 * (an invalid PodGroup has its validation events already, so only its pods get one; a PodGroup short
 * of pods is only waiting for them to be created, so nothing gets one); on a PodGroup when it gets scheduled; on a
 * PodGroup for each hint a plugin ignored ({@link HintWarnings}); on a Workload API PodGroup, whose
 * status is not Muster's to write, for its pending reason ({@link WorkloadGroupEvents}). A status is written only when it
 * differs from the stored one, and not again until the informer has shown the previous write (the
 * status of a scheduler-plugins PodGroup, whose phases differ, is left alone).
 *
 * <p><b>Only the PodGroups this instance schedules are written</b>, so that two schedulers in one
 * cluster (Muster beside Volcano, or two Muster instances with different names) no longer overwrite
 * each other's statuses every cycle:
 * <ul>
 *   <li>a PodGroup with at least one pod whose {@code spec.schedulerName} is one of this instance's
 *       names (the engine puts only those pods in a job) is this instance's, and written as ever;
 *   <li>one with a pod of another scheduler's on a node (and none of ours) is that scheduler's: never written;
 *   <li>one with no pods seen yet is nobody's so far (a Volcano PodGroup names no scheduler, and another
 *       scheduler's pending pods are not read) and is only <em>admitted</em>: written while its stored
 *       phase is absent or {@code Pending} (to {@code Inqueue}, which Volcano's job controller waits for
 *       before it creates the pods), never once it has moved on. Two schedulers that both admit it write
 *       the same phase, once; after that only the scheduler of its pods writes it.
 * </ul>
 * Queue statuses are shared, and still written by every instance.
 *
 * <p>Not thread-safe: the scheduling thread calls it once per cycle.
 */
public final class StatusWriter {
    static final String VOLCANO = SchedulingApi.VOLCANO_SCHEDULING;
    private static final Logger log = LoggerFactory.getLogger(StatusWriter.class);
    /** After this long, a write the informer never showed no longer holds back the next one. */
    private static final Duration UNSEEN_WRITE_TTL = Duration.ofSeconds(30);
    private static final int PARALLELISM = 16;

    private final RestCalls rest;
    private final EventRecorder events;
    private final ValidationEvents validation;
    private final HintWarnings hintWarnings;
    private final WorkloadGroupEvents workloadGroupEvents;
    private final Clock clock;
    private final Map<String, Written> written = new ConcurrentHashMap<>();
    /**
     * Objects whose last status write failed: the first failure is a warning, the same object failing
     * again (every cycle while the API server is away) only a debug line, until a write succeeds.
     */
    private final Set<String> failing = ConcurrentHashMap.newKeySet();

    public StatusWriter(KubernetesClient client, RetryPolicy retry, Clock clock) {
        this(new RestCalls(requireNonNull(client, "client is null"), requireNonNull(retry, "retry is null")), clock);
    }

    StatusWriter(RestCalls rest, Clock clock) {
        this.rest = requireNonNull(rest, "rest is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.events = new EventRecorder(rest, clock);
        this.validation = new ValidationEvents(events, new InvalidPodCondition(rest, clock));
        this.hintWarnings = new HintWarnings(events);
        this.workloadGroupEvents = new WorkloadGroupEvents(events);
    }

    /**
     * Writes every status that changed and waits for the answers.
     *
     * @return how many statuses were written
     * @throws InterruptedException when interrupted while waiting for a free slot
     */
    public int write(CacheSnapshot snapshot, SessionResult result) throws InterruptedException {
        Instant now = clock.instant();
        validation.report(snapshot.invalid());
        hintWarnings.report(snapshot.podGroups(), result);
        workloadGroupEvents.report(snapshot, result);
        written.values().removeIf(write -> write.at().isBefore(now.minus(UNSEEN_WRITE_TTL)));
        if (!failing.isEmpty()) {
            // an object deleted while its writes failed is forgotten
            failing.retainAll(statusPaths(snapshot));
        }
        Semaphore slots = new Semaphore(PARALLELISM);
        List<CompletableFuture<Boolean>> writes = new ArrayList<>();
        Set<JobId> othersJobs = new HashSet<>();
        snapshot.cluster().otherTasks().forEach(task -> othersJobs.add(task.job()));
        for (Map.Entry<JobId, StoredObject> entry : snapshot.podGroups().entrySet()) {
            Job job = snapshot.cluster().jobs().get(entry.getKey());
            JobOutcome outcome = result.jobs().get(entry.getKey());
            if (job == null || outcome == null || !entry.getValue().apiVersion().equals(VOLCANO)) {
                continue;
            }
            ObjectNode current = entry.getValue().status();
            if (!schedules(job, othersJobs, current)) {
                continue;
            }
            ObjectNode desired = PodGroupStatus.desired(current, job, outcome, now);
            // Volcano's PodGroup CRD has no status subresource: its status is patched on the object
            String path = podGroupPath(job.id());
            if (unchanged(path, entry.getValue(), current, desired)) {
                continue;
            }
            slots.acquire();
            writes.add(patch(path, entry.getValue(), desired, slots)
                    .thenApply(done -> done && announce(job, entry.getValue(), current, desired)));
        }
        for (Map.Entry<QueueName, StoredObject> entry : snapshot.queues().entrySet()) {
            Queue queue = snapshot.cluster().queues().get(entry.getKey());
            if (queue == null) {
                continue;
            }
            ObjectNode current = entry.getValue().status();
            ObjectNode desired = QueueStatus.desired(current, queue, snapshot.cluster(), result);
            String path = queuePath(queue.name());
            if (unchanged(path, entry.getValue(), current, desired)) {
                continue;
            }
            slots.acquire();
            writes.add(patch(path, entry.getValue(), desired, slots));
        }
        int count = 0;
        for (CompletableFuture<Boolean> write : writes) {
            count += write.join() ? 1 : 0;
        }
        return count;
    }

    /** Whether this instance writes the PodGroup's status (the class comment says when). */
    private static boolean schedules(Job job, Set<JobId> othersJobs, ObjectNode stored) {
        if (!job.tasks().isEmpty()) {
            return true;
        }
        if (othersJobs.contains(job.id())) {
            return false;
        }
        String phase = stored.path("phase").asText("");
        return phase.isEmpty() || phase.equals("Pending");
    }

    private boolean unchanged(String path, StoredObject stored, ObjectNode current, ObjectNode desired) {
        if (current.equals(desired)) {
            return true;
        }
        // the informer has not shown our last write yet: what looks stale may already be written
        Written last = written.get(path);
        return last != null && last.resourceVersion().equals(stored.resourceVersion());
    }

    private CompletableFuture<Boolean> patch(String path, StoredObject stored, ObjectNode desired, Semaphore slots) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.set("status", desired);
        Instant at = clock.instant();
        return rest.mergePatch(path, body.toString()).thenApply(response -> {
            if (response.outcome() == ApiResponse.Outcome.DONE) {
                written.put(path, new Written(stored.resourceVersion(), at));
                if (failing.remove(path)) {
                    log.info("status written again object={}", path);
                }
                return true;
            }
            if (response.outcome() == ApiResponse.Outcome.FENCED) {
                return false;
            }
            if (failing.add(path)) {
                log.warn("status not written, retried each cycle object={} detail=\"{}\"", path, response.describe());
            } else {
                log.debug("status not written again object={} detail=\"{}\"", path, response.describe());
            }
            return false;
        }).whenComplete((ignored, failure) -> slots.release());
    }

    private static Set<String> statusPaths(CacheSnapshot snapshot) {
        Set<String> paths = new HashSet<>();
        snapshot.podGroups().keySet().forEach(job -> paths.add(podGroupPath(job)));
        snapshot.queues().keySet().forEach(queue -> paths.add(queuePath(queue)));
        return paths;
    }

    private static String podGroupPath(JobId job) {
        return "/apis/" + VOLCANO + "/namespaces/" + job.namespace() + "/podgroups/" + job.name();
    }

    private static String queuePath(QueueName queue) {
        return "/apis/" + VOLCANO + "/queues/" + queue.value() + "/status";
    }

    /** Events for what changed: a new or different Unschedulable reason, or the gang scheduled. */
    private boolean announce(Job job, StoredObject stored, ObjectNode current, ObjectNode desired) {
        Subject podGroup = new Subject(VOLCANO, "PodGroup", job.id().namespace(), job.id().name(), stored.uid());
        Optional<String> reason = PodGroupStatus.unschedulableMessage(desired);
        if (reason.isPresent() && !reason.equals(PodGroupStatus.unschedulableMessage(current))) {
            String message = reason.get();
            String kind = PodGroupStatus.unschedulableConditionReason(desired).orElse("");
            if (kind.equals(PodGroupStatus.NOT_ENOUGH_TASKS)) {
                return true;
            }
            if (!kind.equals(PodGroupStatus.INVALID_SPEC)) {
                events.record(podGroup, true, PodGroupStatus.UNSCHEDULABLE, message);
            }
            for (Task task : job.tasks()) {
                if (task.status() == TaskStatus.PENDING) {
                    Subject pod = new Subject("v1", "Pod", task.id().namespace(), task.id().name(), task.uid());
                    events.record(pod, true, "FailedScheduling", "PodGroup " + job.id() + ": " + message);
                }
            }
        } else if (PodGroupStatus.scheduled(desired) && !PodGroupStatus.scheduled(current)) {
            events.record(podGroup, false, PodGroupStatus.SCHEDULED, "all " + job.minMember() + " tasks of the gang placed");
        }
        return true;
    }

    /** A status written while the stored object had {@code resourceVersion}. */
    private record Written(String resourceVersion, Instant at) {}
}
