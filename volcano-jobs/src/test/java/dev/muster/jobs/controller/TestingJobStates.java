package dev.muster.jobs.controller;

import dev.muster.jobs.JobPhase;
import dev.muster.jobs.JobStatus;
import dev.muster.jobs.PodPhase;
import dev.muster.jobs.TestingJobs;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.jobplugins.SshKeyGenerator;
import dev.muster.jobs.jobplugins.SshKeyPair;
import java.time.Instant;

/** A small job in any phase, pods of it, and a reconciler with fixed keys, for lifecycle tests. */
final class TestingJobStates {
    static final Instant ENTERED = Instant.parse("2026-01-01T00:10:00Z");
    static final Instant NOW = Instant.parse("2026-01-01T00:20:00Z");
    static final SshKeyPair KEYS = new SshKeyPair("-----BEGIN PRIVATE KEY-----\nsecret\n-----END PRIVATE KEY-----\n", "ssh-rsa AAAA test\n");
    static final JobReconciler RECONCILER = new JobReconciler(SshKeyGenerator.fixed(KEYS), PriorityClassLookup.NONE);

    /** {@code ns/train}: one task {@code worker} of two replicas, minAvailable 2, maxRetry 3. */
    static final String TRAIN = """
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: train, namespace: ns}
            spec:
              minAvailable: 2
              maxRetry: 3
              tasks:
              - name: worker
                replicas: 2
                template:
                  spec:
                    containers:
                    - name: main
                      image: trainer:1
                      resources: {requests: {cpu: "2", memory: 4Gi}}
                    restartPolicy: Never
            """;

    private TestingJobStates() {}

    static VolcanoJob train() {
        return TestingJobs.job(TRAIN);
    }

    /** The job as the controller left it in {@code phase}, with {@code retryCount} restarts. */
    static VolcanoJob inPhase(VolcanoJob job, JobPhase phase, int retryCount) {
        JobStatus status = JobStatus.NEW.withMinAvailable(job.spec().minAvailable()).withRetryCount(retryCount).transition(phase, "", "", ENTERED);
        return job.withStatus(status);
    }

    static ObservedPod worker(int index, PodPhase phase) {
        return ObservedPod.of("train-worker-" + index, "worker", phase);
    }
}
