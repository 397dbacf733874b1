package dev.muster.engine.cache;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The pods one snapshot converted, by the very tree they were read from, for the next snapshot: the
 * {@link ClusterCache} never changes a tree it stores, so a pod whose tree is the same object as last
 * cycle converts to the same task with the same problems, and reading every pod again each cycle was
 * half of a cycle's time once the pods were bound. A pod that changed has a new tree and is converted
 * again; what a snapshot did not read is forgotten at its end.
 *
 * <p>Thread-safe; meant for one snapshot at a time.
 */
@ThreadSafe
final class PodConversions {
    @GuardedBy("this")
    private Map<JsonNode, Conversion> previous = new IdentityHashMap<>();

    @GuardedBy("this")
    private Map<JsonNode, Conversion> current = new IdentityHashMap<>();

    /** What {@code converter} makes of the pod, and the problems it finds, as when it last read this tree. */
    synchronized Optional<ConvertedPod> convert(PodConverter converter, ManifestObject object, Problems problems) {
        Conversion conversion = previous.get(object.body());
        if (conversion == null || !conversion.object().equals(object)) {
            Problems found = new Problems();
            conversion = new Conversion(object, converter.convert(object, found), found.list());
        }
        current.put(object.body(), conversion);
        conversion.problems().forEach(problems::add);
        return conversion.pod();
    }

    /** Ends a snapshot: the next one finds what this one converted, and only that. */
    synchronized void snapshotDone() {
        previous = current;
        current = new IdentityHashMap<>();
    }

    private record Conversion(ManifestObject object, Optional<ConvertedPod> pod, ImmutableList<ManifestProblem> problems) {
        Conversion {
            requireNonNull(object, "object is null");
            requireNonNull(pod, "pod is null");
            problems = ImmutableList.copyOf(problems);
        }
    }
}
