package dev.muster.engine.framework;

import dev.muster.engine.model.Queue;

/**
 * Orders queues. The first non-zero answer in tier order wins, then creation time, then uid.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface QueueOrder {
    /** Negative when {@code left} should be served first, 0 for no opinion. */
    int compareQueues(Queue left, Queue right);
}
