package dev.muster.bridge.kubeflow;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.muster.bridge.kubeflow.NativeJob.ReplicaRestartPolicy;
import dev.muster.bridge.kubeflow.NativeJob.ReplicaSpec;
import dev.muster.bridge.kubeflow.NativeJobStatus.ReplicaCounts;
import dev.muster.bridge.kubeflow.NativeSyncPlan.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One sync of native mode, in the order of the operator's {@code ReconcileJobs} ({@code pkg/controller.v1/common/job.go:78-364}):
 * a finished job is cleaned up by {@code cleanPodPolicy} and deleted after {@code ttlSecondsAfterFinished}; a suspended
 * job loses its pods; a job past {@code backoffLimit} or {@code activeDeadlineSeconds} fails; otherwise its Volcano
 * PodGroup is made, and once Muster has admitted it (phase neither empty nor Pending) the missing pods and Services,
 * failed pods restarted by their replica's policy ({@code pod.go:269-380}) and the kind's status rules
 * ({@link NativeStatusRules}). Pure: the clock is an argument, nothing is read or written.
 *
 * <p>Not done: the operator's other backoff rule, which counts the work queue's requeues of the job ({@code job.go:192-198});
 * {@code PastBackoffLimit}, on container restart counts, is.
 */
public final class NativeJobSync {
    /** A retryable exit code for {@code ExitCode}: 128 and above, a signal ({@code train_util.go:24-26}). */
    static final int FIRST_RETRYABLE_EXIT_CODE = 128;
    /** The exit code the operator assumes while the default container has not terminated ({@code pod.go}'s magic number). */
    private static final int NOT_TERMINATED = 0xbeef;

    private NativeJobSync() {}

    /** What the API server shows of a job's objects: its pods, the names of its Services, its PodGroup's phase if it has one. */
    public record Observed(ImmutableList<ReplicaPod> pods, ImmutableSet<String> services, Optional<String> podGroupPhase, Instant now) {
        public Observed {
            pods = ImmutableList.copyOf(pods);
            services = ImmutableSet.copyOf(services);
            requireNonNull(podGroupPhase, "podGroupPhase is null");
            requireNonNull(now, "now is null");
        }
    }

    /**
     * Why native mode leaves a job alone, as an Event on it: its {@code runPolicy.managedBy} names a controller other than
     * the training operator, which native mode stands in for (the operator's first step, {@code tfjob_controller.go:130-133}).
     * Nothing is made, deleted or written in its status, bad input is not reported, and the job is synced again on
     * its next change. A value the operator's webhook admits (MultiKueue's) gets a Normal Event; any other, a Warning
     * naming the field and the value. Empty when native mode syncs the job.
     */
    public static Optional<Event> leftAlone(TrainingJob job) {
        requireNonNull(job, "job is null");
        if (job.managedBy().byTheOperator()) {
            return Optional.empty();
        }
        String value = job.managedBy().value().orElseThrow();
        String reason = job.kind().kind() + "ManagedElsewhere";
        if (job.managedBy().known()) {
            return Optional.of(new Event(false, reason, job.displayName() + " is managed by " + value + " (spec.runPolicy.managedBy):"
                    + " Muster's native mode, like the training operator, leaves it to that controller and makes nothing for it"));
        }
        return Optional.of(new Event(true, reason, job.displayName() + ": spec.runPolicy.managedBy '" + value
                + "' names no controller training operator v1.9 knows (known: " + KubeflowApi.TRAINING_OPERATOR_MANAGER + ", "
                + KubeflowApi.MULTIKUEUE_MANAGER + "); the operator's webhook refuses it and its controller leaves the job alone,"
                + " and so does Muster's native mode: nothing is made for it"));
    }

    public static NativeSyncPlan sync(NativeJob job, RunPolicy policy, NativeJobStatus current, Observed observed) {
        requireNonNull(job, "job is null");
        requireNonNull(policy, "policy is null");
        requireNonNull(current, "current is null");
        requireNonNull(observed, "observed is null");
        String kind = job.kind().kind();
        String name = job.job().name();
        Instant now = observed.now();
        List<Event> events = new ArrayList<>();
        Set<String> deletePods = new LinkedHashSet<>();
        NativeJobStatus status = current;
        if (status.condition(JobCondition.CREATED).isEmpty()) {
            status = status.withCondition(JobCondition.CREATED, true, kind + "Created", kind + " " + name + " is created.", now);
        }
        if (status.finished()) {
            cleanUp(policy, true, observed.pods(), deletePods);
            if (status.isTrue(JobCondition.SUCCEEDED)) {
                TreeMap<String, ReplicaCounts> moved = new TreeMap<>();
                status.replicaStatuses().forEach((type, counts) -> moved.put(type,
                        new ReplicaCounts(0, counts.succeeded() + counts.active(), counts.failed())));
                status = status.withReplicaStatuses(moved);
            }
            boolean deleteJob = false;
            Optional<Duration> recheck = Optional.empty();
            if (policy.ttlSecondsAfterFinished().isPresent() && status.completionTime().isPresent()) {
                Instant expiry = status.completionTime().get().plusSeconds(policy.ttlSecondsAfterFinished().get());
                deleteJob = !now.isBefore(expiry);
                recheck = deleteJob ? Optional.empty() : Optional.of(Duration.between(now, expiry));
            }
            return plan(false, observed.podGroupPhase().isPresent(), deletePods, ImmutableSet.of(), ImmutableSet.of(),
                    servicesOf(deletePods, observed), status, events, recheck, deleteJob);
        }
        if (policy.suspend()) {
            cleanUp(policy, false, observed.pods(), deletePods);
            TreeMap<String, ReplicaCounts> idle = new TreeMap<>();
            status.replicaStatuses().forEach((type, counts) -> idle.put(type, new ReplicaCounts(0, counts.succeeded(), counts.failed())));
            status = status.withReplicaStatuses(idle);
            String message = kind + " " + name + " is suspended.";
            if (status.isTrue(JobCondition.RUNNING)) {
                status = status.withCondition(JobCondition.RUNNING, false, kind + "Suspended", message, now);
            }
            if (!status.isTrue(JobCondition.SUSPENDED)) {
                status = status.withCondition(JobCondition.SUSPENDED, true, kind + "Suspended", message, now);
                events.add(new Event(false, kind + "Suspended", message));
            }
            return plan(false, observed.podGroupPhase().isPresent(), deletePods, ImmutableSet.of(), ImmutableSet.of(),
                    servicesOf(deletePods, observed), status, events, Optional.empty(), false);
        }
        if (status.isTrue(JobCondition.SUSPENDED)) {
            String message = kind + " " + name + " is resumed.";
            status = status.withCondition(JobCondition.SUSPENDED, false, kind + "Resumed", message, now).withStartTime(now);
            events.add(new Event(false, kind + "Resumed", message));
        }
        Optional<String> limit = pastBackoffLimit(job, policy, observed.pods())
                ? Optional.of("Job " + name + " has failed because it has reached the specified backoff limit")
                : pastActiveDeadline(policy, status, now)
                        ? Optional.of("Job " + name + " has failed because it was active longer than specified deadline")
                        : Optional.empty();
        if (limit.isPresent()) {
            status = NativeStatusRules.failed(status, kind, limit.get(), now, events);
            cleanUp(policy, true, observed.pods(), deletePods);
            return plan(false, observed.podGroupPhase().isPresent(), deletePods, ImmutableSet.of(), ImmutableSet.of(),
                    servicesOf(deletePods, observed), status, events, Optional.empty(), false);
        }
        if (observed.podGroupPhase().isEmpty() || List.of("", "Pending").contains(observed.podGroupPhase().get())) {
            // the operator's Volcano path: no pod before the gang is admitted (podgroup_control.go:81-87)
            return plan(observed.podGroupPhase().isEmpty(), false, deletePods, ImmutableSet.of(), ImmutableSet.of(), ImmutableSet.of(),
                    status, events, Optional.empty(), false);
        }
        return NativeReplicaSync.reconcile(job, policy, status, observed, events);
    }

    /** PastBackoffLimit ({@code pkg/core/job.go:95-133}): restarts of Running pods whose replica may restart. */
    private static boolean pastBackoffLimit(NativeJob job, RunPolicy policy, List<ReplicaPod> pods) {
        if (policy.backoffLimit().isEmpty()) {
            return false;
        }
        int restarts = 0;
        for (ReplicaPod pod : pods) {
            Optional<ReplicaSpec> spec = spec(job, pod.type());
            if (spec.isPresent() && spec.get().restartPolicy() != ReplicaRestartPolicy.NEVER && pod.phase().equals("Running")) {
                restarts += pod.restarts();
            }
        }
        int backoffLimit = policy.backoffLimit().get();
        return backoffLimit == 0 ? restarts > 0 : restarts >= backoffLimit;
    }

    private static boolean pastActiveDeadline(RunPolicy policy, NativeJobStatus status, Instant now) {
        return policy.activeDeadlineSeconds().isPresent() && status.startTime().isPresent()
                && Duration.between(status.startTime().get(), now).compareTo(Duration.ofSeconds(policy.activeDeadlineSeconds().get())) >= 0;
    }

    /** DeletePodsAndServices: a finished job's pods by {@code cleanPodPolicy}; an unfinished (suspended) job's all. */
    private static void cleanUp(RunPolicy policy, boolean finished, List<ReplicaPod> pods, Set<String> deletePods) {
        for (ReplicaPod pod : pods) {
            boolean delete = !finished || switch (policy.cleanPodPolicy()) {
                case NONE -> false;
                case RUNNING -> pod.phase().equals("Running") || pod.phase().equals("Pending");
                case ALL -> true;
            };
            if (delete && !pod.deleting()) {
                deletePods.add(pod.name());
            }
        }
    }

    private static ImmutableSet<String> servicesOf(Set<String> pods, Observed observed) {
        return pods.stream().filter(observed.services()::contains).collect(ImmutableSet.toImmutableSet());
    }

    static Optional<ReplicaSpec> spec(NativeJob job, String lowerType) {
        return job.replicaSpecs().entrySet().stream().filter(entry -> TfConfig.lower(entry.getKey()).equals(lowerType))
                .map(Map.Entry::getValue).findFirst();
    }

    static int exitCode(ReplicaPod pod) {
        return pod.exitCode().orElse(NOT_TERMINATED);
    }

    static NativeSyncPlan plan(boolean createPodGroup, boolean deletePodGroup, Set<String> deletePods, Set<String> createPods,
            Set<String> createServices, Set<String> deleteServices, NativeJobStatus status, List<Event> events, Optional<Duration> recheck,
            boolean deleteJob) {
        return new NativeSyncPlan(createPodGroup, deletePodGroup, ImmutableSet.copyOf(createPods), ImmutableSet.copyOf(deletePods),
                ImmutableSet.copyOf(createServices), ImmutableSet.copyOf(deleteServices), status, ImmutableList.copyOf(events), recheck,
                deleteJob);
    }
}
