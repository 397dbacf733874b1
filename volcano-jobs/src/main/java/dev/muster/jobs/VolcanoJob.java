package dev.muster.jobs;

import static java.util.Objects.requireNonNull;

/** A {@code batch.volcano.sh/v1alpha1} Job: metadata, spec and the status last written. */
public record VolcanoJob(JobMetadata metadata, VolcanoJobSpec spec, JobStatus status) {
    public static final String API_VERSION = "batch.volcano.sh/v1alpha1";
    public static final String KIND = "Job";

    public VolcanoJob {
        requireNonNull(metadata, "metadata is null");
        requireNonNull(spec, "spec is null");
        requireNonNull(status, "status is null");
    }

    public String name() {
        return metadata.name();
    }

    public String namespace() {
        return metadata.namespace();
    }

    public VolcanoJob withStatus(JobStatus newStatus) {
        return new VolcanoJob(metadata, spec, newStatus);
    }
}
