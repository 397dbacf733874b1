package dev.muster.engine.model;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import java.time.Instant;
import java.util.Optional;

/**
 * A queue ({@code scheduling.volcano.sh/v1beta1} Queue).
 *
 * @param weight the share weight for proportion, 1 or more
 * @param capability the hard limit; absent means unlimited
 * @param guarantee reserved for this queue whatever the others do
 * @param deserved the explicit fair share the capacity plugin uses; absent means best effort
 * @param parent the parent in the queue tree ({@code spec.parent})
 * @param reclaimable whether other queues may reclaim from it ({@code spec.reclaimable}, default true)
 */
public record Queue(
        QueueName name,
        String uid,
        int weight,
        Optional<Resources> capability,
        Resources guarantee,
        Optional<Resources> deserved,
        Optional<QueueName> parent,
        int priority,
        boolean reclaimable,
        QueueState state,
        Instant created,
        ImmutableMap<String, String> annotations) {
    public static final QueueName DEFAULT = new QueueName("default");
    public static final QueueName ROOT = new QueueName("root");

    public Queue {
        requireNonNull(name, "name is null");
        requireNonNull(uid, "uid is null");
        checkArgument(weight >= 0, "queue %s: weight is negative: %s", name, weight);
        requireNonNull(capability, "capability is null");
        requireNonNull(guarantee, "guarantee is null");
        requireNonNull(deserved, "deserved is null");
        requireNonNull(parent, "parent is null");
        requireNonNull(state, "state is null");
        requireNonNull(created, "created is null");
        annotations = ImmutableMap.copyOf(annotations);
    }
}
