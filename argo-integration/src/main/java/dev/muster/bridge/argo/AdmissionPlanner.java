package dev.muster.bridge.argo;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.runtime.admission.AdmissionTrial;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Pure: which workflows wait for admission, which hold their queue, and which are let go. A workflow
 * takes part when it says {@link AdmissionAnnotations#ADMIT} {@code "true"}, or says nothing and its
 * queue says {@link AdmissionAnnotations#ADMIT_WORKFLOWS} {@code "true"}; it waits while it is suspended,
 * has never started a pod and has not been admitted. Bad input never leaves a workflow suspended for
 * ever: a bad {@code admit} value, several queues or a queue that does not exist resume it without
 * admission, with a Warning naming the field and the value.
 */
public final class AdmissionPlanner {
    /** The would-be PodGroups' names: a space is in no Kubernetes name, so none is a PodGroup's. */
    static final String TRIAL_PREFIX = "workflow ";

    private AdmissionPlanner() {}

    /** @param queues the Queues that exist, and whether each opts its workflows in */
    public static AdmissionPlan plan(List<AdmissionRequest> workflows, Map<String, Boolean> queues) {
        List<Job> candidates = new ArrayList<>();
        List<AdmissionTrial.Reservation> reservations = new ArrayList<>();
        Map<JobId, AdmissionRequest> waiting = new LinkedHashMap<>();
        List<AdmissionPlan.Notice> released = new ArrayList<>();
        List<AdmissionPlan.Notice> ignored = new ArrayList<>();
        for (AdmissionRequest workflow : workflows) {
            if (workflow.finished()) {
                continue;
            }
            if (workflow.admitted()) {
                // an admitted workflow keeps what it may still need, for as long as it runs
                workflow.queue().filter(queues::containsKey).ifPresent(queue -> reservations.add(new AdmissionTrial.Reservation(
                        job(workflow, queue, PodGroupPhase.INQUEUE), ImmutableMap.of(ArgoApi.WORKFLOW_LABEL, workflow.key().name()))));
                continue;
            }
            boolean waits = workflow.suspended() && !workflow.started();
            // only a workflow that asked for admission itself is resumed for bad input: one suspended for other reasons stays so
            boolean asked = workflow.admit().orElse(false) || !workflow.problems().isEmpty();
            if (asked) {
                List<String> problems = new ArrayList<>(workflow.problems());
                workflow.queue().filter(queue -> !queues.containsKey(queue)).ifPresent(queue -> problems.add(
                        "metadata.annotations." + AdmissionAnnotations.QUEUE + ": queue '" + queue + "' does not exist"));
                if (!problems.isEmpty()) {
                    if (waits) {
                        released.add(new AdmissionPlan.Notice(workflow, String.join("; ", problems) + "; resumed without admission"));
                    }
                    continue;
                }
            }
            boolean asks = workflow.admit().orElseGet(() -> workflow.queue().map(queue -> queues.getOrDefault(queue, false)).orElse(false));
            if (!asks) {
                continue;
            }
            if (!workflow.suspended() && !workflow.started()) {
                ignored.add(new AdmissionPlan.Notice(workflow, AdmissionAnnotations.ADMIT
                        + " is \"true\" but the workflow was not submitted suspended (spec.suspend: true); it runs without admission"));
                continue;
            }
            if (waits) {
                Job job = job(workflow, workflow.queue().orElseThrow(), PodGroupPhase.PENDING);
                candidates.add(job);
                waiting.put(job.id(), workflow);
            }
        }
        return new AdmissionPlan(ImmutableList.copyOf(candidates), ImmutableList.copyOf(reservations), ImmutableMap.copyOf(waiting), ImmutableList.copyOf(released),
                ImmutableList.copyOf(ignored));
    }

    private static Job job(AdmissionRequest workflow, String queue, PodGroupPhase phase) {
        int pods = workflow.stages().widest().map(StageDemand::pods).orElse(0);
        return new Job(new JobId(workflow.key().namespace(), TRIAL_PREFIX + workflow.key().name()), workflow.uid(), new QueueName(queue),
                pods, ImmutableMap.of(), Optional.of(workflow.stages().need()), 0, workflow.priorityClass(), phase, workflow.created(), Optional.empty(),
                ImmutableMap.of(), ImmutableList.of(), ImmutableList.of());
    }
}
