package dev.muster.engine.framework;

import dev.muster.engine.model.Queue;
import java.util.List;

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

    /** May the queue reclaim resources from others for these tasks? Every plugin must agree. */
    default boolean isPreemptive(Queue queue, List<TaskState> tasks) {
        return true;
    }
}
