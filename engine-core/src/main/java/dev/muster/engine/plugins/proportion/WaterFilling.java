package dev.muster.engine.plugins.proportion;

import dev.muster.engine.model.Resources;
import dev.muster.engine.queue.Quota;
import dev.muster.engine.queue.QueueAttributes;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * Shares the cluster between queues by weight (Volcano proportion's deserved computation). Each round
 * gives every queue not yet satisfied its weighted part of what remains, capped by its real capability
 * and its request and raised to its guarantee; a queue is satisfied once it deserves all it requests
 * or a round leaves it unchanged. Rounds stop when nothing remains or nothing changed.
 */
final class WaterFilling {
    private WaterFilling() {}

    static void assignDeserved(Collection<QueueAttributes> queues, Resources total) {
        Resources remaining = total;
        Set<QueueAttributes> satisfied = new HashSet<>();
        while (true) {
            long totalWeight = 0;
            for (QueueAttributes queue : queues) {
                if (!satisfied.contains(queue)) {
                    totalWeight += queue.queue().weight();
                }
            }
            if (totalWeight == 0) {
                return;
            }
            Resources increased = Resources.EMPTY;
            Resources decreased = Resources.EMPTY;
            for (QueueAttributes queue : queues) {
                if (satisfied.contains(queue)) {
                    continue;
                }
                Resources old = queue.deserved();
                Resources deserved = old.add(remaining.multiply((double) queue.queue().weight() / totalWeight))
                        .min(queue.realCapability(), Resources.Missing.INFINITY)
                        .min(queue.request(), Resources.Missing.ZERO)
                        .max(queue.guarantee());
                queue.setDeserved(deserved);
                queue.setShare(Quota.share(queue.allocated(), deserved));
                if (queue.request().lessEqual(deserved, Resources.Missing.ZERO) || Quota.identical(deserved, old)) {
                    satisfied.add(queue);
                }
                increased = increased.add(Quota.exceededPart(deserved, old));
                decreased = decreased.add(Quota.exceededPart(old, deserved));
            }
            Resources previous = remaining;
            remaining = Quota.exceededPart(remaining.add(decreased), increased);
            if (Quota.isEmpty(remaining) || Quota.identical(remaining, previous)) {
                return;
            }
        }
    }
}
