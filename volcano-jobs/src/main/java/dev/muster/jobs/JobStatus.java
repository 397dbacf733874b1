package dev.muster.jobs;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A Volcano Job's {@code status} as Volcano writes it.
 *
 * @param phase {@code state.phase}; empty until the controller first sees the job
 * @param reason {@code state.reason}, empty when unset
 * @param message {@code state.message}, empty when unset
 * @param taskStatusCount per task, pods by phase ({@code taskStatusCount.worker.phase.Running: 2})
 * @param version bumped each time the whole job is killed; pods carry the version they were made in
 * @param controlledResources what the controller made for the job ({@code plugin-svc: svc})
 */
public record JobStatus(
        Optional<JobPhase> phase,
        String reason,
        String message,
        Optional<Instant> lastTransitionTime,
        int minAvailable,
        ImmutableSortedMap<String, ImmutableSortedMap<PodPhase, Integer>> taskStatusCount,
        PodCounts counts,
        int version,
        int retryCount,
        Optional<Duration> runningDuration,
        ImmutableSortedMap<String, String> controlledResources,
        ImmutableList<JobCondition> conditions) {
    /** The status of a job the controller has not seen yet. */
    public static final JobStatus NEW = new JobStatus(Optional.empty(), "", "", Optional.empty(), 0, ImmutableSortedMap.of(),
            PodCounts.NONE, 0, 0, Optional.empty(), ImmutableSortedMap.of(), ImmutableList.of());

    public JobStatus {
        requireNonNull(phase, "phase is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(message, "message is null");
        requireNonNull(lastTransitionTime, "lastTransitionTime is null");
        taskStatusCount = ImmutableSortedMap.copyOf(taskStatusCount);
        requireNonNull(counts, "counts is null");
        requireNonNull(runningDuration, "runningDuration is null");
        controlledResources = ImmutableSortedMap.copyOf(controlledResources);
        conditions = ImmutableList.copyOf(conditions);
    }

    /** The phase, Pending for a job not seen yet (Volcano's default state). */
    public JobPhase currentPhase() {
        return phase.orElse(JobPhase.PENDING);
    }

    /** How many pods of {@code task} are in {@code podPhase}. */
    public int taskCount(String task, PodPhase podPhase) {
        ImmutableSortedMap<PodPhase, Integer> phases = taskStatusCount.get(task);
        return phases == null ? 0 : phases.getOrDefault(podPhase, 0);
    }

    public JobStatus withCounts(PodCounts newCounts, ImmutableSortedMap<String, ImmutableSortedMap<PodPhase, Integer>> newTaskStatusCount) {
        return new JobStatus(phase, reason, message, lastTransitionTime, minAvailable, newTaskStatusCount, newCounts, version, retryCount,
                runningDuration, controlledResources, conditions);
    }

    /** Enters {@code newPhase} at {@code now}, appending a condition, as Volcano does on every phase change. */
    public JobStatus transition(JobPhase newPhase, String newReason, String newMessage, Instant now) {
        ImmutableList<JobCondition> newConditions = ImmutableList.<JobCondition>builder()
                .addAll(conditions).add(new JobCondition(newPhase, now)).build();
        return new JobStatus(Optional.of(newPhase), newReason, newMessage, Optional.of(now), minAvailable, taskStatusCount, counts,
                version, retryCount, runningDuration, controlledResources, newConditions);
    }

    public JobStatus withRetryCount(int newRetryCount) {
        return new JobStatus(phase, reason, message, lastTransitionTime, minAvailable, taskStatusCount, counts, version, newRetryCount,
                runningDuration, controlledResources, conditions);
    }

    public JobStatus withVersion(int newVersion) {
        return new JobStatus(phase, reason, message, lastTransitionTime, minAvailable, taskStatusCount, counts, newVersion, retryCount,
                runningDuration, controlledResources, conditions);
    }

    public JobStatus withMinAvailable(int newMinAvailable) {
        return new JobStatus(phase, reason, message, lastTransitionTime, newMinAvailable, taskStatusCount, counts, version, retryCount,
                runningDuration, controlledResources, conditions);
    }

    public JobStatus withRunningDuration(Duration duration) {
        return new JobStatus(phase, reason, message, lastTransitionTime, minAvailable, taskStatusCount, counts, version, retryCount,
                Optional.of(duration), controlledResources, conditions);
    }

    public JobStatus withControlledResource(String key, String value) {
        TreeMap<String, String> resources = new TreeMap<>(controlledResources);
        resources.put(key, value);
        return new JobStatus(phase, reason, message, lastTransitionTime, minAvailable, taskStatusCount, counts, version, retryCount,
                runningDuration, ImmutableSortedMap.copyOf(resources), conditions);
    }

    public JobStatus withoutControlledResource(String key) {
        TreeMap<String, String> resources = new TreeMap<>(controlledResources);
        resources.remove(key);
        return new JobStatus(phase, reason, message, lastTransitionTime, minAvailable, taskStatusCount, counts, version, retryCount,
                runningDuration, ImmutableSortedMap.copyOf(resources), conditions);
    }
}
