package dev.muster.engine.framework;

import dev.muster.engine.model.Queue;

/**
 * Orders the queues victims are taken from, for a preemptor of the given queue. First non-zero answer wins; without one, the reverse of the queue order.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface VictimQueueOrder {
    /** Negative when victims should be taken from {@code left} first. */
    int compareVictimQueues(Queue left, Queue right, Queue preemptor);
}
