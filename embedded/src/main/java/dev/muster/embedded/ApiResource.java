package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * One resource the embedded API server serves, as discovery describes it to kubectl.
 *
 * @param group the API group, empty for the core group
 * @param plural the resource name in URLs, {@code pods/binding} for a subresource
 */
record ApiResource(String group, String version, String plural, String kind, boolean namespaced, ImmutableList<String> shortNames) {
    ApiResource {
        requireNonNull(group, "group is null");
        requireNonNull(version, "version is null");
        requireNonNull(plural, "plural is null");
        requireNonNull(kind, "kind is null");
        shortNames = ImmutableList.copyOf(shortNames);
    }

    static ApiResource core(String plural, String kind, boolean namespaced, String... shortNames) {
        return new ApiResource("", "v1", plural, kind, namespaced, ImmutableList.copyOf(shortNames));
    }

    static ApiResource of(String groupVersion, String plural, String kind, boolean namespaced, String... shortNames) {
        int slash = groupVersion.indexOf('/');
        return new ApiResource(groupVersion.substring(0, slash), groupVersion.substring(slash + 1), plural, kind, namespaced,
                ImmutableList.copyOf(shortNames));
    }

    /** {@code v1} for the core group, {@code group/version} otherwise. */
    String groupVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    boolean subresource() {
        return plural.contains("/");
    }
}
