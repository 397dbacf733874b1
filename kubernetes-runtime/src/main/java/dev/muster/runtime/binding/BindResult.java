package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.TaskId;

/**
 * How one bind ended.
 *
 * @param detail the server's answer when the bind did not take effect, empty otherwise
 */
public record BindResult(TaskId task, NodeName node, Status status, String detail) {
    public BindResult {
        requireNonNull(task, "task is null");
        requireNonNull(node, "node is null");
        requireNonNull(status, "status is null");
        requireNonNull(detail, "detail is null");
    }

    /** How a bind ended; every status but {@link #BOUND} leaves the pod to the next cycle. */
    public enum Status {
        /** The pod is on the node. */
        BOUND,
        /** 409: already bound (perhaps by an earlier try or another scheduler) or replaced; the informer resyncs it. */
        CONFLICT,
        /** 404: the pod was deleted. */
        GONE,
        /** Retries ran out (5xx, timeouts, no answer) or the server refused the request. */
        FAILED
    }
}
