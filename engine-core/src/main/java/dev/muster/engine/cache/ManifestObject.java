package dev.muster.engine.cache;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.engine.yaml.Positions;

/**
 * One object of a known kind, read from a manifest: where it is, what it is, and its JSON tree.
 *
 * @param namespace the namespace ({@code default} when unset) of a namespaced object, empty otherwise
 * @param positions where the body's fields are written in the source, for problems to name the line
 */
record ManifestObject(Location location, ResourceKind kind, String namespace, String name, ObjectNode body, Positions positions) {
    ManifestObject {
        requireNonNull(location, "location is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        requireNonNull(body, "body is null");
        requireNonNull(positions, "positions is null");
    }

    /** {@code namespace/name} for namespaced objects, {@code name} otherwise. */
    String displayName() {
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }

    ManifestProblem error(String field, String message) {
        return location.problem(positions.of(field), kind.kind(), displayName(), field, message, ManifestProblem.Severity.ERROR);
    }

    ManifestProblem warning(String field, String message) {
        return location.problem(positions.of(field), kind.kind(), displayName(), field, message, ManifestProblem.Severity.WARNING);
    }
}
