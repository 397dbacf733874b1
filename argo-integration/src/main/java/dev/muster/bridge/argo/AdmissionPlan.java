package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;

/**
 * What admission does this pass, before the queue is asked.
 *
 * @param trial the would-be PodGroups to ask the scheduler's enqueue action about: a Pending one per
 *     waiting workflow, an Inqueue one per admitted workflow still running (what it may still need)
 * @param waiting the waiting workflows, by their would-be PodGroup's id
 * @param released workflows resumed without admission, each with why (a Warning Event on it)
 * @param ignored workflows that ask for admission but cannot have it, and run as they are, each with why
 */
public record AdmissionPlan(
        ImmutableList<Job> trial,
        ImmutableMap<JobId, AdmissionRequest> waiting,
        ImmutableList<Notice> released,
        ImmutableList<Notice> ignored) {
    public AdmissionPlan {
        trial = ImmutableList.copyOf(trial);
        waiting = ImmutableMap.copyOf(waiting);
        released = ImmutableList.copyOf(released);
        ignored = ImmutableList.copyOf(ignored);
    }

    /** A workflow and a message about it. */
    public record Notice(AdmissionRequest workflow, String message) {
        public Notice {
            requireNonNull(workflow, "workflow is null");
            requireNonNull(message, "message is null");
        }
    }
}
