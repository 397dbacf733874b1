package dev.muster.bridge.kubeflow;

import dev.muster.bridge.kubeflow.NativeJob.ReplicaRestartPolicy;
import dev.muster.bridge.kubeflow.NativeJob.ReplicaSpec;
import dev.muster.bridge.kubeflow.NativeJobStatus.ReplicaCounts;
import dev.muster.bridge.kubeflow.NativeSyncPlan.Event;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kinds' {@code UpdateJobStatus}: from the replica counts of this sync, the Running, Succeeded, Restarting and
 * Failed conditions, with the operator's reasons and messages (TFJob {@code tfjob_controller.go:373-519}, PyTorchJob
 * {@code pytorchjob_controller.go:343-447}). Pure. Replica types are visited in name order, which is the TFJob's own
 * order (Chief, Evaluator, Master, PS, Worker); the PyTorchJob's is a Go map's.
 */
final class NativeStatusRules {
    private NativeStatusRules() {}

    /**
     * @param worker0Completed a TFJob's Worker 0 pod Succeeded with exit code 0 (true without Workers, as {@code IsWorker0Completed})
     * @param events where the Events of the rules go
     */
    static NativeJobStatus update(NativeJob job, RunPolicy policy, NativeJobStatus status, boolean worker0Completed, Instant now,
            List<Event> events) {
        return switch (job.kind()) {
            case TFJOB -> tensorflow(job, policy, status, worker0Completed, now, events);
            case PYTORCHJOB -> pytorch(job, status, now, events);
        };
    }

    private static NativeJobStatus tensorflow(NativeJob job, RunPolicy policy, NativeJobStatus status, boolean worker0Completed,
            Instant now, List<Event> events) {
        String kind = job.kind().kind();
        String name = job.job().namespace() + "/" + job.job().name();
        // read before the loop: a Running set below removes it, and a failure puts it back
        Optional<JobCondition> restarting = status.condition(JobCondition.RESTARTING);
        boolean hasChief = job.replicaSpecs().containsKey("Chief") || job.replicaSpecs().containsKey("Master");
        NativeJobStatus result = status;
        for (Map.Entry<String, ReplicaSpec> entry : job.replicaSpecs().entrySet()) {
            String type = entry.getKey();
            ReplicaCounts counts = result.replicaStatuses().getOrDefault(type, ReplicaCounts.NONE);
            int expected = entry.getValue().replicas() - counts.succeeded();
            boolean decides = hasChief ? type.equals("Chief") || type.equals("Master") : type.equals("Worker");
            if (decides) {
                boolean succeeded = hasChief ? expected == 0 : expected == 0 || (worker0Completed && !policy.allWorkers());
                if (hasChief && counts.active() > 0) {
                    result = running(result, kind, kind + " " + name + " is running.", now);
                }
                if (succeeded) {
                    result = succeeded(result, kind, kind + " " + name + " successfully completed.", now, events);
                } else if (!hasChief && counts.active() > 0) {
                    result = running(result, kind, kind + " " + name + " is running.", now);
                }
            }
            if (counts.failed() > 0) {
                if (restarting.isPresent()) {
                    result = result.withCondition(JobCondition.RESTARTING, true, restarting.get().reason(), restarting.get().message(), now);
                } else if (!(job.enableDynamicWorker() && type.equals("Worker"))) {
                    result = failed(result, kind, kind + " " + name + " has failed because " + counts.failed() + " " + type
                            + " replica(s) failed.", now, events);
                }
            }
        }
        return result;
    }

    private static NativeJobStatus pytorch(NativeJob job, NativeJobStatus status, Instant now, List<Event> events) {
        String kind = job.kind().kind();
        String name = job.job().name();
        String qualified = job.job().namespace() + "/" + name;
        boolean hasMaster = job.replicaSpecs().containsKey("Master");
        NativeJobStatus result = status;
        for (Map.Entry<String, ReplicaSpec> entry : job.replicaSpecs().entrySet()) {
            String type = entry.getKey();
            ReplicaSpec spec = entry.getValue();
            ReplicaCounts counts = result.replicaStatuses().getOrDefault(type, ReplicaCounts.NONE);
            int expected = spec.replicas() - counts.succeeded();
            if (hasMaster && type.equals("Master")) {
                if (counts.active() > 0) {
                    result = running(result, kind, kind + " " + name + " is running.", now);
                }
                if (expected == 0) {
                    // the master's success ends the job: the other types are not looked at
                    return succeeded(result, kind, kind + " " + name + " is successfully completed.", now, events);
                }
            } else if (!hasMaster && type.equals("Worker")) {
                if (expected == 0 || (job.elasticPolicy().isPresent() && counts.succeeded() > 0)) {
                    result = succeeded(result, kind, kind + " " + qualified + " successfully completed.", now, events);
                } else if (counts.active() > 0) {
                    result = running(result, kind, kind + " " + qualified + " is running.", now);
                }
            }
            if (counts.failed() > 0 && spec.replicas() > counts.succeeded() + counts.active()) {
                if (spec.restartPolicy() != ReplicaRestartPolicy.NEVER) {
                    String message = kind + " " + name + " is restarting because " + counts.failed() + " " + type + " replica(s) failed.";
                    events.add(new Event(true, kind + "Restarting", message));
                    result = result.withCondition(JobCondition.RESTARTING, true, kind + "Restarting", message, now);
                } else {
                    result = failed(result, kind, kind + " " + name + " is failed because " + counts.failed() + " " + type
                            + " replica(s) failed.", now, events);
                }
            }
        }
        return result;
    }

    private static NativeJobStatus running(NativeJobStatus status, String kind, String message, Instant now) {
        return status.withCondition(JobCondition.RUNNING, true, kind + "Running", message, now);
    }

    private static NativeJobStatus succeeded(NativeJobStatus status, String kind, String message, Instant now, List<Event> events) {
        events.add(new Event(false, kind + "Succeeded", message));
        return status.completedAt(now).withCondition(JobCondition.SUCCEEDED, true, kind + "Succeeded", message, now);
    }

    static NativeJobStatus failed(NativeJobStatus status, String kind, String message, Instant now, List<Event> events) {
        events.add(new Event(false, kind + "Failed", message));
        return status.completedAt(now).withCondition(JobCondition.FAILED, true, kind + "Failed", message, now);
    }
}
