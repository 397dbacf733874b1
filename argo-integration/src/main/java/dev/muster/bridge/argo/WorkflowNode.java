package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * One entry of a Workflow's {@code status.nodes}: the fields the bridge reads.
 *
 * @param templateName the template the node runs; empty when the node names none (a template reference)
 */
public record WorkflowNode(String id, String name, NodeType type, String templateName, String phase, ImmutableList<String> children) {
    public WorkflowNode {
        requireNonNull(id, "id is null");
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(templateName, "templateName is null");
        requireNonNull(phase, "phase is null");
        children = ImmutableList.copyOf(children);
    }
}
