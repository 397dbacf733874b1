package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableSet;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which stored objects name which owners: from each object's {@code metadata.ownerReferences[].uid}
 * to the object's path, so that deleting an owner can find its dependents without reading the store.
 */
@ThreadSafe
final class OwnerIndex {
    /** Owner uid to the paths of the objects that name it. */
    @GuardedBy("this")
    private final Map<String, Set<String>> dependents = new HashMap<>();
    /** Object identity to its path and the owner uids it names, so that an update or delete can take the old entries out. */
    @GuardedBy("this")
    private final Map<String, Owned> owners = new HashMap<>();

    private record Owned(String path, Set<String> uids) {}

    /** Records what {@code object}, stored at {@code path} under {@code identity}, names as owners now (nothing, if it names none). */
    synchronized void put(String identity, String path, JsonNode object) {
        requireNonNull(identity, "identity is null");
        requireNonNull(path, "path is null");
        remove(identity);
        Set<String> uids = new HashSet<>();
        for (JsonNode reference : object.path("metadata").path("ownerReferences")) {
            String uid = reference.path("uid").asText("");
            if (!uid.isEmpty()) {
                uids.add(uid);
            }
        }
        if (uids.isEmpty()) {
            return;
        }
        owners.put(identity, new Owned(path, uids));
        uids.forEach(uid -> dependents.computeIfAbsent(uid, key -> new HashSet<>()).add(path));
    }

    synchronized void remove(String identity) {
        Owned previous = owners.remove(identity);
        if (previous == null) {
            return;
        }
        for (String uid : previous.uids()) {
            Set<String> paths = dependents.get(uid);
            if (paths != null) {
                paths.remove(previous.path());
                if (paths.isEmpty()) {
                    dependents.remove(uid);
                }
            }
        }
    }

    /** The paths of the objects that name {@code uid} among their owners. */
    synchronized ImmutableSet<String> dependentsOf(String uid) {
        return ImmutableSet.copyOf(dependents.getOrDefault(uid, Set.of()));
    }

    synchronized void clear() {
        dependents.clear();
        owners.clear();
    }

    /** Where an object is stored: {@code /api/v1[/namespaces/NS]/PLURAL/NAME} or {@code /apis/GROUP/VERSION[/namespaces/NS]/PLURAL/NAME}. */
    static String path(String apiVersion, String plural, String namespace, String name) {
        StringBuilder path = new StringBuilder(apiVersion.contains("/") ? "/apis/" : "/api/").append(apiVersion);
        if (!namespace.isEmpty()) {
            path.append("/namespaces/").append(namespace);
        }
        return path.append('/').append(plural).append('/').append(name).toString();
    }
}
