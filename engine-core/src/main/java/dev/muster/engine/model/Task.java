package dev.muster.engine.model;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import java.time.Instant;
import java.util.Optional;

/**
 * A pod as the scheduler sees it at the start of a cycle.
 *
 * @param role the task name within its job (the {@code volcano.sh/task-spec} annotation or label), or empty
 * @param request the sum of the containers' requests; empty means best effort
 * @param initRequest the request that must fit a node: the larger of {@code request} and each init container
 * @param priority the pod priority ({@code spec.priority}, 1 when unset, as Volcano)
 * @param preemptable {@code volcano.sh/preemptable}, true unless set to false
 * @param preemptionNever {@code spec.preemptionPolicy: Never}
 * @param gated the pod has scheduling gates and must not be placed
 * @param started when the pod started running ({@code status.startTime}), empty while it does not run
 *     or when the API server did not say
 */
public record Task(
        TaskId id,
        String uid,
        JobId job,
        String role,
        int priority,
        String priorityClassName,
        Resources request,
        Resources initRequest,
        TaskStatus status,
        Optional<NodeName> node,
        Instant created,
        boolean preemptable,
        boolean preemptionNever,
        boolean gated,
        Placement placement,
        ImmutableMap<String, String> labels,
        ImmutableMap<String, String> annotations,
        Optional<Instant> started) {
    public Task {
        requireNonNull(id, "id is null");
        requireNonNull(uid, "uid is null");
        requireNonNull(job, "job is null");
        requireNonNull(role, "role is null");
        requireNonNull(priorityClassName, "priorityClassName is null");
        requireNonNull(request, "request is null");
        requireNonNull(initRequest, "initRequest is null");
        requireNonNull(status, "status is null");
        requireNonNull(node, "node is null");
        requireNonNull(created, "created is null");
        requireNonNull(placement, "placement is null");
        labels = ImmutableMap.copyOf(labels);
        annotations = ImmutableMap.copyOf(annotations);
        checkArgument(status != TaskStatus.BOUND || node.isPresent(), "task %s is Bound without a node", id);
        requireNonNull(started, "started is null");
    }

    /** A task whose start time is not known. */
    public Task(TaskId id, String uid, JobId job, String role, int priority, String priorityClassName, Resources request,
            Resources initRequest, TaskStatus status, Optional<NodeName> node, Instant created, boolean preemptable,
            boolean preemptionNever, boolean gated, Placement placement, ImmutableMap<String, String> labels,
            ImmutableMap<String, String> annotations) {
        this(id, uid, job, role, priority, priorityClassName, request, initRequest, status, node, created, preemptable,
                preemptionNever, gated, placement, labels, annotations, Optional.empty());
    }

    public boolean bestEffort() {
        return request.isEmpty();
    }

    public Task withStatus(TaskStatus newStatus, Optional<NodeName> newNode) {
        return new Task(id, uid, job, role, priority, priorityClassName, request, initRequest, newStatus, newNode,
                created, preemptable, preemptionNever, gated, placement, labels, annotations, started);
    }

    public Task withStarted(Optional<Instant> newStarted) {
        return new Task(id, uid, job, role, priority, priorityClassName, request, initRequest, status, node,
                created, preemptable, preemptionNever, gated, placement, labels, annotations, newStarted);
    }
}
