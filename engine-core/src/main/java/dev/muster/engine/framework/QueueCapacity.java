package dev.muster.engine.framework;

import dev.muster.engine.model.Queue;
import java.util.List;
import java.util.Optional;

/**
 * A queue's quota: whether it is overused, may take a task now, or may reclaim for tasks.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface QueueCapacity {
    /** True when the queue is over its share: allocate and reclaim skip it. Any plugin saying so wins. */
    default boolean isOverused(Queue queue) {
        return false;
    }

    /** May the queue take this task now? Every plugin must agree. */
    default boolean isAllocatable(Queue queue, TaskState task) {
        return true;
    }

    /**
     * Why {@link #isAllocatable} refuses the task, in words a user can act on, e.g. {@code queue ml
     * would use nvidia.com/gpu 20 > its deserved 16}. Called only after a refusal, off the hot path.
     */
    default Optional<String> explainNotAllocatable(Queue queue, TaskState task) {
        return Optional.empty();
    }

    /**
     * When {@link #isAllocatable} refuses the task because of a limit set on the queue (its state, its
     * capability, what the other queues' guarantees leave it), why, in the same words as
     * {@link #explainNotAllocatable}; empty when the refusal, if any, is a share of what the cluster has
     * now. A limit is named before the room on the nodes, a share after it. Called only after a refusal.
     */
    default Optional<String> explainLimit(Queue queue, TaskState task) {
        return Optional.empty();
    }

    /** May the queue reclaim resources from others for these tasks? Every plugin must agree. */
    default boolean isPreemptive(Queue queue, List<TaskState> tasks) {
        return true;
    }
}
