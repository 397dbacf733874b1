package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import java.time.Duration;
import java.util.Optional;

/**
 * What one sync of native mode decided for a job, applied by {@link NativeJobWriter}: objects to make and
 * delete (by name), the job's new status, Events, and when to look again though nothing changes.
 *
 * @param createPodGroup make the job's Volcano PodGroup (it has none)
 * @param deletePodGroup delete it (the job is finished or suspended)
 * @param deleteJob the job's {@code ttlSecondsAfterFinished} has passed
 */
public record NativeSyncPlan(
        boolean createPodGroup,
        boolean deletePodGroup,
        ImmutableSet<String> createPods,
        ImmutableSet<String> deletePods,
        ImmutableSet<String> createServices,
        ImmutableSet<String> deleteServices,
        NativeJobStatus status,
        ImmutableList<Event> events,
        Optional<Duration> recheckAfter,
        boolean deleteJob) {
    public NativeSyncPlan {
        createPods = ImmutableSet.copyOf(createPods);
        deletePods = ImmutableSet.copyOf(deletePods);
        createServices = ImmutableSet.copyOf(createServices);
        deleteServices = ImmutableSet.copyOf(deleteServices);
        requireNonNull(status, "status is null");
        events = ImmutableList.copyOf(events);
        requireNonNull(recheckAfter, "recheckAfter is null");
    }

    /** An Event on the job, as the operator's recorder writes it. */
    public record Event(boolean warning, String reason, String message) {
        public Event {
            requireNonNull(reason, "reason is null");
            requireNonNull(message, "message is null");
        }
    }
}
