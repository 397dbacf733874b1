package dev.muster.runtime.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.function.Consumer;

/**
 * An informer handler that reacts the same way to an object added, updated or deleted: what a
 * level-triggered controller needs, since it reads the current state again from its informers' stores.
 */
public final class EveryChange {
    private EveryChange() {}

    /** Calls {@code changed} with the object (the new one on an update, the last known one on a delete). */
    public static <T extends HasMetadata> ResourceEventHandler<T> handler(Consumer<T> changed) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                changed.accept(object);
            }

            @Override
            public void onUpdate(T previous, T object) {
                changed.accept(object);
            }

            @Override
            public void onDelete(T object, boolean finalStateUnknown) {
                changed.accept(object);
            }
        };
    }
}
