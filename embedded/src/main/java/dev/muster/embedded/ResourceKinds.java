package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.base.Splitter;
import com.google.errorprone.annotations.ThreadSafe;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kinds of the resources the server stores, by API version and plural: the built-in ones that
 * discovery lists, and each registered CRD's, with the subresources served for them. A watch's
 * bookmark names the watched kind, as kube-apiserver's does, since clients decode it as one of those
 * objects; and a path that names no stored resource is not served ({@link #serves}).
 */
@ThreadSafe
final class ResourceKinds {
    private static final Pattern RESOURCE_PATH =
            Pattern.compile("^/(?:api/(v1)|apis/([^/]+/[^/?]+))(?:/namespaces/[^/?]+)?/([^/?]+)(?:/[^?]*)?(?:\\?.*)?$");

    /**
     * One stored kind: what a bookmark or a typed list carries in {@code apiVersion} and {@code kind}.
     *
     * @param custom whether a CRD defines it (its field selectors are the CRD's, not a built-in kind's)
     */
    record Kind(String apiVersion, String kind, boolean namespaced, boolean custom) {
        Kind {
            requireNonNull(apiVersion, "apiVersion is null");
            requireNonNull(kind, "kind is null");
        }
    }

    private final Map<String, Kind> kinds = new ConcurrentHashMap<>();
    /** Registered API versions ({@code v1}, {@code group/version}), whose resource lists the mock serves for CRDs. */
    private final Set<String> apiVersions = ConcurrentHashMap.newKeySet();

    ResourceKinds() {
        for (ApiResource resource : Discovery.RESOURCES) {
            kinds.put(key(resource.groupVersion(), resource.plural()),
                    new Kind(resource.groupVersion(), resource.kind(), resource.namespaced(), false));
            apiVersions.add(resource.groupVersion());
        }
    }

    /** Takes the kind of a CRD, for each version it serves. */
    void register(JsonNode crd) {
        String group = crd.path("spec").path("group").asText();
        String plural = crd.path("spec").path("names").path("plural").asText();
        String kind = crd.path("spec").path("names").path("kind").asText();
        boolean namespaced = crd.path("spec").path("scope").asText().equals("Namespaced");
        for (JsonNode version : crd.path("spec").path("versions")) {
            String apiVersion = group + "/" + version.path("name").asText();
            Kind stored = new Kind(apiVersion, kind, namespaced, true);
            kinds.put(key(apiVersion, plural), stored);
            if (version.path("subresources").has("status")) {
                kinds.put(key(apiVersion, plural + "/status"), stored);
            }
            apiVersions.add(apiVersion);
        }
    }

    /**
     * Whether the path (without its query) names a stored resource: a collection, an object, or a
     * subresource served for it, under {@code /api/v1} or {@code /apis/GROUP/VERSION}, namespaced or
     * not; or a registered API version's resource list. kube-apiserver answers anything else 404.
     */
    boolean serves(String path) {
        List<String> segments = Splitter.on('/').splitToList(path.startsWith("/") ? path.substring(1) : path);
        int resource;
        String apiVersion;
        if (segments.size() >= 2 && segments.get(0).equals("api") && segments.get(1).equals("v1")) {
            apiVersion = "v1";
            resource = 2;
        } else if (segments.size() >= 3 && segments.get(0).equals("apis")) {
            apiVersion = segments.get(1) + "/" + segments.get(2);
            resource = 3;
        } else {
            return false;
        }
        List<String> rest = segments.subList(resource, segments.size());
        if (rest.isEmpty()) {
            return apiVersions.contains(apiVersion);
        }
        if (rest.size() >= 3 && rest.get(0).equals("namespaces") && kinds.containsKey(key(apiVersion, rest.get(2)))) {
            return servesObjectPath(apiVersion, rest.subList(2, rest.size()));
        }
        return servesObjectPath(apiVersion, rest);
    }

    /** {@code PLURAL}, {@code PLURAL/NAME} or {@code PLURAL/NAME/SUBRESOURCE}, with nothing empty. */
    private boolean servesObjectPath(String apiVersion, List<String> segments) {
        if (segments.isEmpty() || segments.size() > 3 || segments.contains("")) {
            return false;
        }
        String plural = segments.get(0);
        String served = segments.size() == 3 ? plural + "/" + segments.get(2) : plural;
        return kinds.containsKey(key(apiVersion, served));
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
