package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.errorprone.annotations.ThreadSafe;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kinds of the resources the server stores, by API version and plural: the built-in ones that
 * discovery lists, and each registered CRD's. A watch's bookmark names the watched kind, as
 * kube-apiserver's does, since clients decode it as one of those objects.
 */
@ThreadSafe
final class ResourceKinds {
    private static final Pattern RESOURCE_PATH =
            Pattern.compile("^/(?:api/(v1)|apis/([^/]+/[^/?]+))(?:/namespaces/[^/?]+)?/([^/?]+)(?:/[^?]*)?(?:\\?.*)?$");

    /** One stored kind: what a bookmark or a typed list carries in {@code apiVersion} and {@code kind}. */
    record Kind(String apiVersion, String kind) {
        Kind {
            requireNonNull(apiVersion, "apiVersion is null");
            requireNonNull(kind, "kind is null");
        }
    }

    private final Map<String, Kind> kinds = new ConcurrentHashMap<>();

    ResourceKinds() {
        for (ApiResource resource : Discovery.RESOURCES) {
            if (!resource.subresource()) {
                kinds.put(key(resource.groupVersion(), resource.plural()), new Kind(resource.groupVersion(), resource.kind()));
            }
        }
    }

    /** Takes the kind of a CRD, for each version it serves. */
    void register(JsonNode crd) {
        String group = crd.path("spec").path("group").asText();
        String plural = crd.path("spec").path("names").path("plural").asText();
        String kind = crd.path("spec").path("names").path("kind").asText();
        for (JsonNode version : crd.path("spec").path("versions")) {
            String apiVersion = group + "/" + version.path("name").asText();
            kinds.put(key(apiVersion, plural), new Kind(apiVersion, kind));
        }
    }

    /** The kind stored under the resource a request path names, if the path names one the server stores. */
    Optional<Kind> of(String path) {
        Matcher matcher = RESOURCE_PATH.matcher(path);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        String apiVersion = matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
        return Optional.ofNullable(kinds.get(key(apiVersion, matcher.group(3))));
    }

    private static String key(String apiVersion, String plural) {
        return apiVersion + "|" + plural;
    }
}
