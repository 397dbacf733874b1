package dev.muster.jobs.controller;

import static java.util.Objects.requireNonNull;

/** A namespaced object to delete, by API version, kind and name. */
public record ObjectRef(String apiVersion, String kind, String namespace, String name) {
    public ObjectRef {
        requireNonNull(apiVersion, "apiVersion is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
    }

    @Override
    public String toString() {
        return kind + " " + namespace + "/" + name;
    }
}
