package dev.muster.runtime.controller;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A kind as a controller watches it, the key of {@link SharedInformers}: its Java type, its API path and
 * the label key its objects carry, if any.
 */
record WatchedKind(Class<?> type, String group, String version, String plural, Optional<String> labelKey) {
    WatchedKind {
        requireNonNull(type, "type is null");
        requireNonNull(group, "group is null");
        requireNonNull(version, "version is null");
        requireNonNull(plural, "plural is null");
        requireNonNull(labelKey, "labelKey is null");
    }

    @Override
    public String toString() {
        String path = (group.isEmpty() ? "" : group + "/") + version + "/" + plural;
        return labelKey.map(key -> path + " labelled " + key).orElse(path);
    }
}
