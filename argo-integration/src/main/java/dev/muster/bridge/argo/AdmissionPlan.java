package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.runtime.admission.AdmissionTrial;

/**
 * What admission does this pass, before the queue is asked.
 *
 * @param candidates the would-be PodGroups to ask the scheduler's enqueue action about, a Pending one per
 *     waiting workflow
 * @param reservations an Inqueue one per admitted workflow still running: what it may still need beyond
 *     what its pods (by Argo's workflow label) hold
 * @param waiting the waiting workflows, by their would-be PodGroup's id
 * @param released workflows resumed without admission, each with why (a Warning Event on it)
 * @param ignored workflows that ask for admission but cannot have it, and run as they are, each with why
 */
public record AdmissionPlan(
        ImmutableList<Job> candidates,
        ImmutableList<AdmissionTrial.Reservation> reservations,
        ImmutableMap<JobId, AdmissionRequest> waiting,
        ImmutableList<Notice> released,
        ImmutableList<Notice> ignored) {
    public AdmissionPlan {
        candidates = ImmutableList.copyOf(candidates);
        reservations = ImmutableList.copyOf(reservations);
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
