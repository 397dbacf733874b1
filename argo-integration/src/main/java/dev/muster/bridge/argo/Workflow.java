package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.runtime.controller.ObjectKey;
import java.util.Optional;

/**
 * The parts of an {@code argoproj.io/v1alpha1} Workflow the bridge reads.
 *
 * @param lineage what earlier runs of the same workflow share, for their durations: {@code
 *     WorkflowTemplate/<name>} for one made from a WorkflowTemplate ({@code spec.workflowTemplateRef}),
 *     else {@code generateName/<prefix>}, else {@code name/<name>}
 * @param phase {@code status.phase}; empty while the controller has not looked at it
 * @param podAnnotations per template name, the annotations of its {@code metadata} (which Argo puts on
 *     the template's pods), from {@code spec.templates} and, for a workflow made from a
 *     WorkflowTemplate, {@code status.storedWorkflowTemplateSpec.templates}
 * @param nodes {@code status.nodes} by node id, in the order the status lists them
 */
public record Workflow(
        String namespace,
        String name,
        String uid,
        String lineage,
        String phase,
        ImmutableMap<String, ImmutableMap<String, String>> podAnnotations,
        ImmutableMap<String, WorkflowNode> nodes) {
    public Workflow {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        requireNonNull(uid, "uid is null");
        requireNonNull(lineage, "lineage is null");
        requireNonNull(phase, "phase is null");
        podAnnotations = ImmutableMap.copyOf(podAnnotations);
        nodes = ImmutableMap.copyOf(nodes);
    }

    public ObjectKey key() {
        return new ObjectKey(namespace, name);
    }

    public Optional<WorkflowNode> node(String id) {
        return Optional.ofNullable(nodes.get(id));
    }

    public ImmutableMap<String, String> podAnnotations(String template) {
        return podAnnotations.getOrDefault(template, ImmutableMap.of());
    }

    /** Whether the workflow has ended: Argo's final workflow phases. */
    public boolean isFinished() {
        return phase.equals("Succeeded") || phase.equals("Failed") || phase.equals("Error");
    }
}
