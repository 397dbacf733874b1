package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.api.SchedulingApi;
import dev.muster.engine.cache.CacheSnapshot;
import dev.muster.engine.cache.StoredObject;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.framework.SessionResult.JobOutcome;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.JobOrigin;
import dev.muster.runtime.binding.EventRecorder.Subject;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Posts why a Workload API PodGroup ({@code scheduling.k8s.io/v1alpha2}) waits: a Warning Event, reason
 * {@value PodGroupStatus#UNSCHEDULABLE}, on the PodGroup, once per reason while it lasts. Muster writes
 * no status on that PodGroup (its {@code PodGroupScheduled} condition is kube-scheduler's), so the Event
 * is where {@code kubectl describe} shows the reason a Volcano PodGroup carries in its condition. As for
 * Volcano's, a group whose pods are not all made yet, or whose spec is bad (that has its own
 * {@code InvalidSpec} Event), gets none. An Event that could not be posted is tried again next cycle.
 *
 * <p>Not thread-safe, but for the completions of posts: the scheduling thread calls it once per cycle.
 */
final class WorkloadGroupEvents {
    private final EventRecorder events;
    private final Set<Reported> reported = ConcurrentHashMap.newKeySet();

    WorkloadGroupEvents(EventRecorder events) {
        this.events = requireNonNull(events, "events is null");
    }

    /** Posts the reasons not posted yet and forgets those that are gone; returns how many it posted. */
    int report(CacheSnapshot snapshot, SessionResult result) {
        Set<Reported> current = new HashSet<>();
        int posted = 0;
        for (Map.Entry<JobId, StoredObject> entry : snapshot.podGroups().entrySet()) {
            // every PodGroup, every cycle: the others (all of them, on most clusters) cost one comparison
            if (!entry.getValue().apiVersion().equals(SchedulingApi.WORKLOAD_SCHEDULING)) {
                continue;
            }
            Job job = snapshot.cluster().jobs().get(entry.getKey());
            JobOutcome outcome = result.jobs().get(entry.getKey());
            if (job == null || outcome == null
                    || outcome.ready() || outcome.reason().isEmpty()
                    || !PodGroupStatus.unschedulableReason(job).equals(Optional.of(PodGroupStatus.NOT_ENOUGH_RESOURCES))) {
                continue;
            }
            Subject subject = new Subject(SchedulingApi.WORKLOAD_SCHEDULING, "PodGroup", job.id().namespace(), job.id().name(),
                    entry.getValue().uid());
            Reported key = new Reported(subject, JobOrigin.reasonWithOrigin(job, outcome.reason().get()));
            current.add(key);
            if (reported.add(key)) {
                posted++;
                events.record(subject, true, PodGroupStatus.UNSCHEDULABLE, key.message()).whenComplete((done, failure) -> {
                    if (failure != null || !Boolean.TRUE.equals(done)) {
                        reported.remove(key);
                    }
                });
            }
        }
        reported.retainAll(current);
        return posted;
    }

    private record Reported(Subject subject, String message) {}
}
