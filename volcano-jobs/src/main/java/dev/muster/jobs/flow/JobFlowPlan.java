package dev.muster.jobs.flow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import dev.muster.jobs.controller.PlanEvent;
import java.time.Duration;
import java.util.Optional;

/**
 * What the runtime must do for one JobFlow: create {@code jobsToCreate} (Job manifests, owned by the
 * flow), delete {@code jobsToDelete} (by name, in the flow's namespace), write {@code status}, record
 * {@code events}, and look again after {@code requeueAfter} (a template that does not exist yet).
 */
public record JobFlowPlan(ImmutableList<ObjectNode> jobsToCreate, ImmutableList<String> jobsToDelete, Optional<JobFlowStatus> status,
        ImmutableList<PlanEvent> events, Optional<Duration> requeueAfter) {
    public JobFlowPlan {
        jobsToCreate = jobsToCreate.stream().map(ObjectNode::deepCopy).collect(ImmutableList.toImmutableList());
        jobsToDelete = ImmutableList.copyOf(jobsToDelete);
        requireNonNull(status, "status is null");
        events = ImmutableList.copyOf(events);
        requireNonNull(requeueAfter, "requeueAfter is null");
    }

    public ImmutableList<String> jobNamesToCreate() {
        return jobsToCreate.stream().map(job -> job.path("metadata").path("name").asText()).collect(ImmutableList.toImmutableList());
    }
}
