package dev.muster.engine.framework;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.Queue;
import java.util.List;
import java.util.Optional;

/**
 * Why the session's plugins refuse a task to its queue or a job its admission, in the order a user
 * should read them: a limit set on the queue before the room on the nodes, a share after it. Asked
 * only after a refusal, off the hot path.
 */
public final class Refusals {
    private final List<QueueCapacity> capacities;
    private final List<AdmissionCheck> checks;

    Refusals(List<QueueCapacity> capacities, List<AdmissionCheck> checks) {
        this.capacities = List.copyOf(requireNonNull(capacities, "capacities is null"));
        this.checks = List.copyOf(requireNonNull(checks, "checks is null"));
    }

    /** Why the first refusing plugin will not let the queue take the task; empty when none refuses. */
    public Optional<String> notAllocatable(Queue queue, TaskState task) {
        for (QueueCapacity capacity : capacities) {
            if (!capacity.isAllocatable(queue, task)) {
                return Optional.of(capacity.explainNotAllocatable(queue, task)
                        .orElseGet(() -> "queue " + queue.name() + " is refused by plugin " + nameOf(capacity)));
            }
        }
        return Optional.empty();
    }

    /**
     * Why a plugin that refuses the task does so by a limit set on the queue ({@link
     * QueueCapacity#explainLimit}); empty when no refusing plugin names one.
     */
    public Optional<String> queueLimit(Queue queue, TaskState task) {
        for (QueueCapacity capacity : capacities) {
            if (!capacity.isAllocatable(queue, task)) {
                Optional<String> limit = capacity.explainLimit(queue, task);
                if (limit.isPresent()) {
                    return limit;
                }
            }
        }
        return Optional.empty();
    }

    /** Why the first rejecting plugin will not admit the job; empty when none rejects. */
    public Optional<String> enqueueRejection(JobState job) {
        for (AdmissionCheck check : checks) {
            if (check.isEnqueueable(job) == Vote.REJECT) {
                return Optional.of(check.explainRejection(job).orElseGet(() -> "rejected by plugin " + nameOf(check)));
            }
        }
        return Optional.empty();
    }

    /** Whether the first rejecting plugin rejects the job for want of room or a share of it ({@link AdmissionCheck#rejectsForRoom}). */
    public boolean enqueueRejectedForRoom(JobState job) {
        for (AdmissionCheck check : checks) {
            if (check.isEnqueueable(job) == Vote.REJECT) {
                return check.rejectsForRoom(job);
            }
        }
        return false;
    }

    private static String nameOf(Object plugin) {
        return plugin instanceof Plugin named ? named.name() : plugin.getClass().getSimpleName();
    }
}
