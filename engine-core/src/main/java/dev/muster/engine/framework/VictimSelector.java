package dev.muster.engine.framework;

import java.util.List;
import java.util.Optional;

/**
 * Chooses which running tasks a preemptor may evict: {@link #preemptable} within a queue (the
 * preempt action), {@link #reclaimable} across queues (reclaim). Within a tier the answers are
 * intersected; the first tier with a non-empty answer decides.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface VictimSelector {
    /**
     * The candidates this plugin allows the preemptor to evict, or empty when it abstains. An empty
     * list (not an empty optional) vetoes every candidate.
     */
    default Optional<List<TaskState>> preemptable(TaskState preemptor, List<TaskState> candidates) {
        return Optional.empty();
    }

    /** As {@link #preemptable}, for reclaiming from other queues. */
    default Optional<List<TaskState>> reclaimable(TaskState reclaimer, List<TaskState> candidates) {
        return Optional.empty();
    }
}
