package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.JobId;
import dev.muster.runtime.admission.AdmissionTrial;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One pass of workflow admission over every Workflow of the term: reads them, plans with
 * {@link AdmissionPlanner}, asks the scheduler's enqueue action through {@link AdmissionTrial} which
 * waiting workflows their queues admit now, in the queues' order, and resumes those. Runs on one key of
 * the term's work queue, so never twice at once.
 */
final class AdmissionPass {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Supplier<List<GenericKubernetesResource>> workflows;
    private final Supplier<List<GenericKubernetesResource>> queues;
    private final AdmissionTrial trial;
    private final AdmissionWriter writer;

    AdmissionPass(Supplier<List<GenericKubernetesResource>> workflows, Supplier<List<GenericKubernetesResource>> queues,
            AdmissionTrial trial, AdmissionWriter writer) {
        this.workflows = requireNonNull(workflows, "workflows is null");
        this.queues = requireNonNull(queues, "queues is null");
        this.trial = requireNonNull(trial, "trial is null");
        this.writer = requireNonNull(writer, "writer is null");
    }

    /** Runs the pass; true when a workflow still waits, so the caller asks again once the cluster may have changed. */
    boolean run() {
        List<AdmissionRequest> requests = new ArrayList<>();
        for (GenericKubernetesResource object : workflows.get()) {
            // one the reader refuses gets its GangIgnored event from the gang processing, and is not admitted
            AdmissionReader.read(JSON.<JsonNode>valueToTree(object)).ifPresent(requests::add);
        }
        Map<String, Boolean> queueOptIns = new HashMap<>();
        for (GenericKubernetesResource queue : queues.get()) {
            queueOptIns.put(queue.getMetadata().getName(), AdmissionAnnotations.queueOptsIn(queue.getMetadata().getAnnotations()));
        }
        AdmissionPlan plan = AdmissionPlanner.plan(requests, queueOptIns);
        plan.released().forEach(notice -> writer.release(notice.workflow(), notice.message()));
        plan.ignored().forEach(notice -> writer.ignored(notice.workflow(), notice.message()));
        if (plan.waiting().isEmpty()) {
            return false;
        }
        ImmutableMap<JobId, AdmissionTrial.Verdict> verdicts = trial.admit(plan.candidates(), plan.reservations());
        boolean stillWaiting = false;
        for (Map.Entry<JobId, AdmissionRequest> waiting : plan.waiting().entrySet()) {
            AdmissionRequest workflow = waiting.getValue();
            String queue = workflow.queue().orElseThrow();
            AdmissionTrial.Verdict verdict = verdicts.get(waiting.getKey());
            if (verdict instanceof AdmissionTrial.Waits waits) {
                writer.waits(workflow, "waits for queue " + queue + ": " + workflow.stages().describe() + "; " + waits.reason());
                stillWaiting = true;
            } else {
                writer.admit(workflow, "admitted to queue " + queue + ": " + workflow.stages().describe());
            }
        }
        return stillWaiting;
    }
}
