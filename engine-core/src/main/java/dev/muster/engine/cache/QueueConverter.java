package dev.muster.engine.cache;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.cache.QuantityFields.ResourceList;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.QueueState;
import dev.muster.engine.model.Resources;
import java.time.Instant;
import java.util.Optional;

/**
 * Converts a {@code scheduling.volcano.sh/v1beta1} Queue. A Queue is always kept: a bad field is
 * reported and read as its default, a bad quantity is left out of its resource list, and a bad state
 * reads as Unknown, which neither admits nor allocates.
 */
final class QueueConverter {
    static final int DEFAULT_WEIGHT = 1;

    private QueueConverter() {}

    static Queue convert(ManifestObject object, Problems problems) {
        FieldReader reader = new FieldReader(object, problems);
        int weight = reader.integer("spec.weight").orElse(DEFAULT_WEIGHT);
        if (weight < 0) {
            reader.error("spec.weight", weight + " is negative; read as " + DEFAULT_WEIGHT);
            weight = DEFAULT_WEIGHT;
        }
        Optional<Resources> capability = optionalResources(reader, "spec.capability");
        Resources guarantee = QuantityFields.read(reader, "spec.guarantee.resource").resources();
        Optional<Resources> deserved = optionalResources(reader, "spec.deserved");
        Optional<QueueName> parent = reader.string("spec.parent").filter(text -> !text.isEmpty()).map(QueueName::new);
        int priority = reader.integer("spec.priority").orElse(0);
        boolean reclaimable = reader.bool("spec.reclaimable").orElse(true);
        QueueState state;
        try {
            state = QueueState.parse(reader.string("status.state").orElse(""));
        } catch (IllegalArgumentException e) {
            reader.error("status.state", e.getMessage() + "; read as Unknown");
            state = QueueState.UNKNOWN;
        }
        Instant created = reader.instant("metadata.creationTimestamp").orElse(Instant.EPOCH);
        String uid = reader.string("metadata.uid").filter(text -> !text.isEmpty()).orElse(object.name());
        return new Queue(new QueueName(object.name()), uid, weight, capability, guarantee, deserved, parent, priority,
                reclaimable, state, created, reader.stringMap("metadata.annotations"));
    }

    /** The default queue Volcano always has: weight 1, open, unlimited. */
    static Queue defaultQueue() {
        return new Queue(Queue.DEFAULT, Queue.DEFAULT.value(), DEFAULT_WEIGHT, Optional.empty(), Resources.EMPTY,
                Optional.empty(), Optional.empty(), 0, true, QueueState.OPEN, Instant.EPOCH,
                ImmutableMap.of());
    }

    /** Absent when the list is absent or empty, as Volcano treats an empty capability or deserved. */
    private static Optional<Resources> optionalResources(FieldReader reader, String path) {
        if (FieldReader.absent(reader.at(path)) || reader.at(path).isEmpty()) {
            return Optional.empty();
        }
        ResourceList list = QuantityFields.read(reader, path);
        return Optional.of(list.resources());
    }
}
