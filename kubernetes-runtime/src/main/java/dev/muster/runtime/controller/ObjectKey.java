package dev.muster.runtime.controller;

import static java.util.Objects.requireNonNull;

/** A namespaced object a controller reconciles, as {@code namespace/name}. */
public record ObjectKey(String namespace, String name) {
    public ObjectKey {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
