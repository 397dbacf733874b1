package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.runtime.controller.ObjectKey;
import java.util.Optional;

/**
 * The parts of an {@code argoproj.io/v1alpha1} Workflow the bridge reads.
 *
 * @param podAnnotations per template name, the annotations of its {@code metadata} (which Argo puts on
 *     the template's pods), from {@code spec.templates} and, for a workflow made from a
 *     WorkflowTemplate, {@code status.storedWorkflowTemplateSpec.templates}
 * @param nodes {@code status.nodes} by node id, in the order the status lists them
 */
public record Workflow(
        String namespace,
        String name,
        String uid,
        ImmutableMap<String, ImmutableMap<String, String>> podAnnotations,
        ImmutableMap<String, WorkflowNode> nodes) {
    public Workflow {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        requireNonNull(uid, "uid is null");
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
}
