package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.time.Instant;
import java.util.Optional;

/**
 * One entry of a Workflow's {@code status.nodes}: the fields the bridge reads.
 *
 * @param name Argo's node name: {@code <DAG node name>.<task>} for a DAG task, {@code <steps node
 *     name>[<group>].<step>} for a step, with {@code (0:item)} or {@code (0)} after an expanded or
 *     retried one
 * @param templateName the template the node runs; empty when the node names none (a template reference)
 * @param boundaryId {@code boundaryID}: the DAG or steps node the node is part of; empty for the root
 */
public record WorkflowNode(
        String id,
        String name,
        NodeType type,
        String templateName,
        String phase,
        ImmutableList<String> children,
        String boundaryId,
        Optional<Instant> startedAt,
        Optional<Instant> finishedAt) {
    public WorkflowNode {
        requireNonNull(id, "id is null");
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(templateName, "templateName is null");
        requireNonNull(phase, "phase is null");
        children = ImmutableList.copyOf(children);
        requireNonNull(boundaryId, "boundaryId is null");
        requireNonNull(startedAt, "startedAt is null");
        requireNonNull(finishedAt, "finishedAt is null");
    }
}
