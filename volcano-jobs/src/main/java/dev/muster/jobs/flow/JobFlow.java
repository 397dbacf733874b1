package dev.muster.jobs.flow;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.jobs.JobMetadata;

/**
 * A {@code flow.volcano.sh/v1alpha1} JobFlow.
 *
 * @param deleteJobsOnSuccess {@code jobRetainPolicy: delete}: the flow's jobs are deleted once it succeeded
 * @param previous the status last written; Muster reads only which stages it already reported skipped
 */
public record JobFlow(JobMetadata metadata, ImmutableList<Flow> flows, boolean deleteJobsOnSuccess, JobFlowStatus previous) {
    public static final String API_VERSION = "flow.volcano.sh/v1alpha1";
    public static final String KIND = "JobFlow";

    public JobFlow {
        requireNonNull(metadata, "metadata is null");
        flows = ImmutableList.copyOf(flows);
        requireNonNull(previous, "previous is null");
    }

    public String name() {
        return metadata.name();
    }

    /** The Job a flow runs as: {@code <jobflow>-<template>}, Volcano's naming. */
    public String jobName(String flow) {
        return metadata.name() + "-" + flow;
    }
}
