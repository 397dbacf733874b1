package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Splitter;
import java.util.List;
import java.util.Optional;

/**
 * What a request path names, read as kube-apiserver's request info reads it:
 * {@code /api/v1[/namespaces/NS]/PLURAL[/NAME[/SUBRESOURCE]]} or the same under
 * {@code /apis/GROUP/VERSION}. A path {@code /api/v1/namespaces/NAME} names a namespace.
 *
 * @param group the API group, empty for the core group
 * @param namespace empty for a cluster-wide path
 * @param name empty for a collection
 * @param subresource empty for the object itself
 */
record ResourcePath(String group, String version, String namespace, String plural, String name, String subresource) {
    ResourcePath {
        requireNonNull(group, "group is null");
        requireNonNull(version, "version is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(plural, "plural is null");
        requireNonNull(name, "name is null");
        requireNonNull(subresource, "subresource is null");
    }

    /** What the path (its query ignored) names, if it is a resource path at all. */
    static Optional<ResourcePath> parse(String path) {
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        List<String> segments = Splitter.on('/').splitToList(bare.startsWith("/") ? bare.substring(1) : bare);
        String group;
        String version;
        int first;
        if (segments.size() >= 3 && segments.get(0).equals("api") && segments.get(1).equals("v1")) {
            group = "";
            version = "v1";
            first = 2;
        } else if (segments.size() >= 4 && segments.get(0).equals("apis")) {
            group = segments.get(1);
            version = segments.get(2);
            first = 3;
        } else {
            return Optional.empty();
        }
        List<String> rest = segments.subList(first, segments.size());
        String namespace = "";
        // namespaces/NS/PLURAL...: a namespaced resource; namespaces[/NS[/SUB]]: the namespace itself
        if (rest.size() >= 3 && rest.get(0).equals("namespaces") && !isNamespaceSubresource(rest)) {
            namespace = rest.get(1);
            rest = rest.subList(2, rest.size());
        }
        if (rest.isEmpty() || rest.size() > 3 || rest.contains("")) {
            return Optional.empty();
        }
        return Optional.of(new ResourcePath(group, version, namespace, rest.get(0), rest.size() > 1 ? rest.get(1) : "",
                rest.size() > 2 ? rest.get(2) : ""));
    }

    /** {@code namespaces/NS/status} and {@code namespaces/NS/finalize} are the namespace's own subresources. */
    private static boolean isNamespaceSubresource(List<String> rest) {
        return rest.size() == 3 && (rest.get(2).equals("status") || rest.get(2).equals("finalize"));
    }

    /** {@code v1} or {@code group/version}. */
    String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** The resource as kube-apiserver's messages name it: {@code pods}, {@code podgroups.scheduling.volcano.sh}. */
    String qualifiedResource() {
        return group.isEmpty() ? plural : plural + "." + group;
    }

    boolean namesObject() {
        return !name.isEmpty();
    }
}
