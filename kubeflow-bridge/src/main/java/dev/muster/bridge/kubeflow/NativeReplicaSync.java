package dev.muster.bridge.kubeflow;

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
 * The part of a sync once the gang is admitted: per replica type, the operator's {@code ReconcilePods}
 * ({@code pod.go:269-380}) and {@code ReconcileServices} ({@code service.go}), then {@code startTime} and the
 * kind's status rules. Pure.
 */
final class NativeReplicaSync {
    private NativeReplicaSync() {}

    static NativeSyncPlan reconcile(NativeJob job, RunPolicy policy, NativeJobStatus current, NativeJobSync.Observed observed,
            List<Event> events) {
        String kind = job.kind().kind();
        String name = job.job().name();
        Instant now = observed.now();
        NativeJobStatus status = current;
        Set<String> createPods = new LinkedHashSet<>();
        Set<String> deletePods = new LinkedHashSet<>();
        Set<String> createServices = new LinkedHashSet<>();
        Set<String> wanted = new LinkedHashSet<>();
        Map<String, ReplicaCounts> counts = new TreeMap<>();
        boolean worker0Completed = !job.replicaSpecs().containsKey("Worker");
        for (Map.Entry<String, ReplicaSpec> entry : job.replicaSpecs().entrySet()) {
            String type = entry.getKey();
            ReplicaSpec spec = entry.getValue();
            String lower = TfConfig.lower(type);
            TreeMap<Integer, List<ReplicaPod>> slices = new TreeMap<>();
            for (int index = 0; index < spec.replicas(); index++) {
                slices.put(index, new ArrayList<>());
            }
            observed.pods().stream().filter(pod -> pod.type().equals(lower))
                    .forEach(pod -> slices.computeIfAbsent(pod.index(), ignored -> new ArrayList<>()).add(pod));
            int active = 0;
            int succeeded = 0;
            int failed = 0;
            for (Map.Entry<Integer, List<ReplicaPod>> slice : slices.entrySet()) {
                int index = slice.getKey();
                if (slice.getValue().isEmpty()) {
                    createPods.add(NativeReplicaPlanner.replicaName(name, type, index));
                    continue;
                }
                if (slice.getValue().size() > 1) {
                    // the operator warns of too many pods and leaves them
                    continue;
                }
                ReplicaPod pod = slice.getValue().get(0);
                if (index >= spec.replicas()) {
                    deletePods.add(pod.name());
                }
                if (pod.phase().equals("Failed")) {
                    int exitCode = NativeJobSync.exitCode(pod);
                    boolean retryable = exitCode >= NativeJobSync.FIRST_RETRYABLE_EXIT_CODE;
                    ReplicaRestartPolicy restart = spec.restartPolicy();
                    if (restart == ReplicaRestartPolicy.ON_FAILURE || restart == ReplicaRestartPolicy.ALWAYS
                            || (restart == ReplicaRestartPolicy.EXIT_CODE && retryable)) {
                        if (!pod.deleting()) {
                            deletePods.add(pod.name());
                        }
                        String message = "job " + name + " is restarting because " + type + " replica(s) failed.";
                        events.add(new Event(true, kind + "Restarting", message));
                        status = status.withCondition(JobCondition.RESTARTING, true, kind + "Restarting", message, now);
                    } else if (restart == ReplicaRestartPolicy.EXIT_CODE) {
                        String message = "job \"" + name + "\" is failing because \"" + type + "\" replica(s) failed.";
                        events.add(new Event(true, kind + "Failed", message));
                        status = status.completedAt(now).withCondition(JobCondition.FAILED, true, kind + "Failed", message, now);
                    }
                }
                switch (pod.phase()) {
                    case "Running" -> {
                        if (pod.deleting()) {
                            failed++;
                        } else {
                            active++;
                        }
                    }
                    case "Succeeded" -> succeeded++;
                    case "Failed" -> failed++;
                    default -> { }
                }
                if (type.equals("Worker") && index == 0 && pod.phase().equals("Succeeded") && NativeJobSync.exitCode(pod) == 0) {
                    worker0Completed = true;
                }
            }
            counts.put(type, new ReplicaCounts(active, succeeded, failed));
            for (int index = 0; index < spec.replicas(); index++) {
                String service = NativeReplicaPlanner.replicaName(name, type, index);
                wanted.add(service);
                if (!observed.services().contains(service)) {
                    createServices.add(service);
                }
            }
        }
        Set<String> deleteServices = new LinkedHashSet<>(observed.services());
        deleteServices.removeAll(wanted);
        status = status.withReplicaStatuses(counts);
        Optional<Duration> recheck = Optional.empty();
        if (status.startTime().isEmpty()) {
            status = status.withStartTime(now);
            // the operator looks again once the deadline may have passed (tfjob_controller.go:394-403)
            recheck = policy.activeDeadlineSeconds().map(Duration::ofSeconds);
        } else if (policy.activeDeadlineSeconds().isPresent()) {
            Duration left = Duration.between(now, status.startTime().get().plusSeconds(policy.activeDeadlineSeconds().get()));
            recheck = Optional.of(left.isNegative() ? Duration.ZERO : left);
        }
        status = NativeStatusRules.update(job, policy, status, worker0Completed, now, events);
        return NativeJobSync.plan(false, false, deletePods, createPods, createServices, deleteServices, status, events, recheck, false);
    }
}
