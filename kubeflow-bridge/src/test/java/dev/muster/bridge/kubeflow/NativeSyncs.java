package dev.muster.bridge.kubeflow;

import static dev.muster.bridge.kubeflow.TestingJobs.example;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Runs {@link NativeJobSync} on the operator's examples with hand-made pods, for the native mode's unit tests. */
final class NativeSyncs {
    static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    static final String ADMITTED = "Inqueue";
    private static final String UID = "7c1a2b3c-1111-4222-8333-944455556666";

    private NativeSyncs() {}

    /** An example as submitted in namespace {@code ml} under {@code name}, with a uid. */
    static ObjectNode job(String file, String name) {
        ObjectNode job = example(file, "ml", name);
        ((ObjectNode) job.path("metadata")).put("uid", UID).put("creationTimestamp", "2026-03-01T09:00:00Z");
        return job;
    }

    static NativeSyncPlan sync(ObjectNode job, NativeJobStatus status, List<ReplicaPod> pods, Optional<String> podGroupPhase,
            Instant now) {
        NativeJob nativeJob = NativeJobReader.read(TestingJobs.kindOf(job), job).job();
        Optional<String> phase = podGroupPhase;
        ImmutableSet<String> services = pods.stream().map(ReplicaPod::name).collect(ImmutableSet.toImmutableSet());
        return NativeJobSync.sync(nativeJob, RunPolicy.read(job), status,
                new NativeJobSync.Observed(ImmutableList.copyOf(pods), services, phase, now));
    }

    /** A sync of an admitted gang whose pods are these, at {@link #NOW}. */
    static NativeSyncPlan admitted(ObjectNode job, NativeJobStatus status, ReplicaPod... pods) {
        return sync(job, status, List.of(pods), Optional.of(ADMITTED), NOW);
    }

    static ReplicaPod pod(String job, String type, int index, String phase) {
        return new ReplicaPod(job + "-" + type + "-" + index, type, index, phase, Optional.empty(), 0, false);
    }

    static ReplicaPod exited(String job, String type, int index, int exitCode) {
        return new ReplicaPod(job + "-" + type + "-" + index, type, index, exitCode == 0 ? "Succeeded" : "Failed", Optional.of(exitCode), 0,
                false);
    }

    /** The types of the conditions that are True, in order. */
    static List<String> trueConditions(NativeSyncPlan plan) {
        return plan.status().conditions().stream().filter(JobCondition::status).map(JobCondition::type).toList();
    }

    static JobCondition condition(NativeSyncPlan plan, String type) {
        return plan.status().condition(type).orElseThrow(() -> new AssertionError("no condition " + type + " in " + plan.status()));
    }
}
