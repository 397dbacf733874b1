package dev.muster.jobs.runtime;

import static java.util.Objects.requireNonNull;

/** A namespaced object a controller reconciles, as {@code namespace/name}. */
record ObjectKey(String namespace, String name) {
    ObjectKey {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
