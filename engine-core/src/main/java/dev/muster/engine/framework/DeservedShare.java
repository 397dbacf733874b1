package dev.muster.engine.framework;

import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import java.util.Optional;

/**
 * A plugin that computes each queue's deserved share for the session (proportion, capacity). Not a
 * scheduling decision point: the scheduling loop reads it once the actions have run, for metrics.
 *
 * <p>Called on the scheduling thread before the session closes; must be fast, do no I/O and not
 * change the session.
 */
public interface DeservedShare {
    /** The queue's deserved share this session, or empty when the plugin does not track the queue. */
    Optional<Resources> deserved(QueueName queue);
}
