package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.TaskId;

/**
 * One pod to bind.
 *
 * @param uid the pod's {@code metadata.uid}: the API server refuses the bind (409) if the pod was replaced by
 *     another of the same name; empty to bind whatever pod has the name
 */
public record BindRequest(TaskId task, String uid, NodeName node) {
    public BindRequest {
        requireNonNull(task, "task is null");
        requireNonNull(uid, "uid is null");
        requireNonNull(node, "node is null");
    }
}
