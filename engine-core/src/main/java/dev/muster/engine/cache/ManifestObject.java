package dev.muster.engine.cache;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One object of a known kind, read from a manifest: where it is, what it is, and its JSON tree.
 *
 * @param namespace the namespace ({@code default} when unset) of a namespaced object, empty otherwise
 */
record ManifestObject(Location location, ResourceKind kind, String namespace, String name, ObjectNode body) {
    ManifestObject {
        requireNonNull(location, "location is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        requireNonNull(body, "body is null");
    }

    /** {@code namespace/name} for namespaced objects, {@code name} otherwise. */
    String displayName() {
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }

    ManifestProblem error(String field, String message) {
        return location.problem(kind.kind(), displayName(), field, message, ManifestProblem.Severity.ERROR);
    }

    ManifestProblem warning(String field, String message) {
        return location.problem(kind.kind(), displayName(), field, message, ManifestProblem.Severity.WARNING);
    }
}
