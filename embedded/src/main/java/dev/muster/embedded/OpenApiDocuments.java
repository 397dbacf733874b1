package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.Lists;
import com.google.common.hash.Hashing;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * The OpenAPI documents kube-apiserver serves, so that {@code kubectl apply} finds the server's field
 * validation and {@code kubectl explain} its schemas: {@code /openapi/v2} and, for each group version
 * of the built-in types, {@code /openapi/v3/...} as the real kube-apiserver v1.34.4 serves them
 * (carried as data, see {@code openapi/NOTICE.md}), and for each registered CRD a v3 document made from
 * its schema as kube-apiserver makes one: the kind's schema with ObjectMeta for its metadata and the
 * kind's paths, whose writes take {@code dryRun}, {@code fieldManager} and {@code fieldValidation}.
 * {@code /openapi/v3} lists them all. {@code /openapi/v2} is also served as protobuf ({@link #protobuf}).
 */
@ThreadSafe
final class OpenApiDocuments {
    private static final String V3 = "/openapi/v3";
    private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
    private static final List<String> BUILT_IN = List.of("api/v1", "apis/apps/v1", "apis/batch/v1", "apis/policy/v1", "apis/networking.k8s.io/v1",
            "apis/scheduling.k8s.io/v1", "apis/coordination.k8s.io/v1", "apis/events.k8s.io/v1", "apis/rbac.authorization.k8s.io/v1",
            "apis/apiextensions.k8s.io/v1");

    private final ObjectMapper json;
    private final TypeSchemas schemas;
    /** The documents made from CRDs, by path ({@code apis/GROUP/VERSION}): each version's kinds. */
    @GuardedBy("this")
    private final Map<String, Map<String, JsonNode>> custom = new LinkedHashMap<>();
    /** The v2 document as last printed; null until asked for, and once a CRD is registered. */
    @GuardedBy("this")
    private String v2;
    /** The v2 document as gnostic's protobuf message, encoded; null until asked for, and once a CRD is registered. */
    @GuardedBy("this")
    private byte[] v2Protobuf;

    OpenApiDocuments(ObjectMapper json, TypeSchemas schemas) {
        this.json = requireNonNull(json, "json is null");
        this.schemas = requireNonNull(schemas, "schemas is null");
    }

    /** The document the path names, as JSON; empty for a path that names none. */
    Optional<String> document(String path) {
        if (path.equals("/openapi/v2")) {
            return Optional.of(v2());
        }
        if (path.equals(V3)) {
            return Optional.of(root());
        }
        if (!path.startsWith(V3 + "/")) {
            return Optional.empty();
        }
        String groupVersion = path.substring(V3.length() + 1);
        if (BUILT_IN.contains(groupVersion)) {
            return Optional.of(builtIn(groupVersion).toString());
        }
        synchronized (this) {
            Map<String, JsonNode> kinds = custom.get(groupVersion);
            return kinds == null ? Optional.empty() : Optional.of(customDocument(groupVersion, kinds).toString());
        }
    }

    /**
     * The document the path names as protobuf, where kube-apiserver serves one ({@code /openapi/v2}, as gnostic's
     * {@code Document}: {@link OpenApiV2Protobuf}); empty for any other path.
     */
    synchronized Optional<byte[]> protobuf(String path) {
        if (!path.equals("/openapi/v2")) {
            return Optional.empty();
        }
        if (v2Protobuf == null) {
            try {
                v2Protobuf = OpenApiV2Protobuf.of(json.readTree(v2())).toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException("BUG: the v2 document is not JSON", e);
            }
        }
        return Optional.of(v2Protobuf.clone());
    }

    /** The v2 document: the built-in types' and each served CRD version's definitions ({@link CustomResourceV2}). */
    private synchronized String v2() {
        if (v2 == null) {
            ObjectNode document = schemas.openApiV2().deepCopy();
            ObjectNode definitions = document.get("definitions") instanceof ObjectNode existing ? existing : document.putObject("definitions");
            custom.values().forEach(kinds -> kinds.values().forEach(crd ->
                    CustomResourceV2.define(crd, crd.path("servedVersion").asText(), definitions)));
            v2 = document.toString();
        }
        return v2;
    }

    /** Takes each served version of a CRD into the document of its group version. */
    synchronized void register(JsonNode crd) {
        v2 = null;
        v2Protobuf = null;
        for (JsonNode version : crd.path("spec").path("versions")) {
            if (version.path("served").asBoolean(true)) {
                custom.computeIfAbsent("apis/" + crd.path("spec").path("group").asText() + "/" + version.path("name").asText(),
                        key -> new LinkedHashMap<>()).put(crd.path("spec").path("names").path("kind").asText(), withVersion(crd, version));
            }
        }
    }

    private String root() {
        ObjectNode paths = json.createObjectNode();
        for (String groupVersion : BUILT_IN) {
            paths.putObject(groupVersion).put("serverRelativeURL", V3 + "/" + groupVersion + "?hash=" + hash(groupVersion));
        }
        synchronized (this) {
            custom.forEach((groupVersion, kinds) -> paths.putObject(groupVersion).put("serverRelativeURL",
                    V3 + "/" + groupVersion + "?hash=" + hash(customDocument(groupVersion, kinds).toString())));
        }
        ObjectNode root = json.createObjectNode();
        root.set("paths", paths);
        return root.toString();
    }

    private JsonNode builtIn(String groupVersion) {
        String resource = "openapi/v3/" + groupVersion.replace('/', '_') + ".json.gz";
        try (InputStream compressed = OpenApiDocuments.class.getResourceAsStream(resource)) {
            requireNonNull(compressed, "BUG: " + resource + " is not on the class path");
            return json.readTree(new GZIPInputStream(compressed));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** A group version's document: each kind's schema, the meta/v1 schemas they refer to, and their paths. */
    private JsonNode customDocument(String groupVersion, Map<String, JsonNode> kinds) {
        ObjectNode document = json.createObjectNode().put("openapi", "3.0.0");
        document.putObject("info").put("title", "Kubernetes CRD Swagger").put("version", "v0.1.0");
        ObjectNode paths = document.putObject("paths");
        ObjectNode components = document.putObject("components").putObject("schemas");
        JsonNode apps = builtIn("apis/apps/v1");
        apps.path("components").path("schemas").properties().forEach(schema -> {
            if (schema.getKey().startsWith(META)) {
                components.set(schema.getKey(), schema.getValue());
            }
        });
        JsonNode writeParameters = apps.path("paths").path("/apis/apps/v1/namespaces/{namespace}/deployments/{name}").path("patch")
                .path("parameters");
        kinds.values().forEach(crd -> describe(groupVersion, crd, paths, components, writeParameters));
        return document;
    }

    private void describe(String groupVersion, JsonNode crd, ObjectNode paths, ObjectNode components, JsonNode writeParameters) {
        JsonNode spec = crd.path("spec");
        String group = spec.path("group").asText();
        String version = crd.path("servedVersion").asText();
        String kind = spec.path("names").path("kind").asText();
        String plural = spec.path("names").path("plural").asText();
        String name = String.join(".", Lists.reverse(ImmutableList.copyOf(group.split("\\.", -1)))) + "." + version + "." + kind;
        ObjectNode schema = spec.path("schema").path("openAPIV3Schema").deepCopy();
        ObjectNode properties = schema.get("properties") instanceof ObjectNode existing ? existing : schema.putObject("properties");
        properties.putObject("metadata").putArray("allOf").addObject().put("$ref", "#/components/schemas/" + META + "ObjectMeta");
        ObjectNode gvk = json.createObjectNode().put("group", group).put("kind", kind).put("version", version);
        schema.putArray("x-kubernetes-group-version-kind").add(gvk);
        components.set(name, schema);
        String collection = "/" + groupVersion + (spec.path("scope").asText().equals("Namespaced") ? "/namespaces/{namespace}/" : "/") + plural;
        ObjectNode collectionPath = paths.putObject(collection);
        operation(collectionPath, "get", "list", gvk, json.createArrayNode());
        operation(collectionPath, "post", "post", gvk, writeParameters);
        ObjectNode objectPath = paths.putObject(collection + "/{name}");
        operation(objectPath, "get", "get", gvk, json.createArrayNode());
        operation(objectPath, "put", "put", gvk, writeParameters);
        operation(objectPath, "patch", "patch", gvk, writeParameters);
        operation(objectPath, "delete", "delete", gvk, json.createArrayNode());
    }

    private static void operation(ObjectNode path, String method, String action, JsonNode gvk, JsonNode parameters) {
        ObjectNode operation = path.putObject(method);
        operation.set("parameters", parameters.deepCopy());
        operation.put("x-kubernetes-action", action);
        operation.set("x-kubernetes-group-version-kind", gvk);
    }

    private ObjectNode withVersion(JsonNode crd, JsonNode version) {
        ObjectNode copy = json.createObjectNode();
        ObjectNode spec = crd.path("spec").deepCopy();
        spec.set("schema", version.path("schema"));
        copy.set("spec", spec);
        copy.put("servedVersion", version.path("name").asText());
        return copy;
    }

    private static String hash(String content) {
        return Hashing.sha256().hashString(content, StandardCharsets.UTF_8).toString().toUpperCase(Locale.ROOT);
    }
}
