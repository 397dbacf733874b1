package dev.muster.engine.cache;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * An object the scheduler cannot use as written, and why: one of its fields fails the checks
 * {@code muster what-if} makes, or it names a queue that does not exist. Its problems are reported on
 * the object itself (an Event each), so {@code kubectl describe} answers why it is not scheduled.
 *
 * @param namespace empty for a cluster-scoped object
 * @param uid {@code metadata.uid}, empty when unset
 * @param problems each {@code field: what is wrong, with the bad value}, as {@code what-if} prints them
 */
public record InvalidObject(String apiVersion, String kind, String namespace, String name, String uid,
        ImmutableList<String> problems) {
    public InvalidObject {
        requireNonNull(apiVersion, "apiVersion is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        requireNonNull(uid, "uid is null");
        problems = ImmutableList.copyOf(problems);
        checkArgument(!problems.isEmpty(), "an invalid object has problems: %s %s", kind, name);
    }
}
