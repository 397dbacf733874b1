package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.base.Suppliers;
import com.google.errorprone.annotations.ThreadSafe;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;

/**
 * The schemas of the types the server stores, by API version and kind: the built-in types from the
 * real kube-apiserver's OpenAPI v2 document, which the repository carries ({@code openapi/v2.json.gz},
 * captured from kube-apiserver v1.34.4, see {@code openapi/NOTICE.md}), and each registered CRD's
 * {@code openAPIV3Schema}. The document is read on first use (a few hundred milliseconds), not at start.
 */
@ThreadSafe
final class TypeSchemas {
    static final String OPENAPI_V2 = "openapi/v2.json.gz";

    private final Supplier<BuiltIn> builtIn;
    private final Map<String, JsonNode> custom = new ConcurrentHashMap<>();

    TypeSchemas(ObjectMapper json) {
        requireNonNull(json, "json is null");
        this.builtIn = Suppliers.memoize(() -> BuiltIn.read(json));
    }

    /** The OpenAPI v2 document of the built-in types, as kube-apiserver serves it. */
    JsonNode openApiV2() {
        return builtIn.get().document();
    }

    /** Takes the schema of each version a CRD serves. */
    void register(JsonNode crd) {
        String group = crd.path("spec").path("group").asText();
        String kind = crd.path("spec").path("names").path("kind").asText();
        for (JsonNode version : crd.path("spec").path("versions")) {
            custom.put(key(group + "/" + version.path("name").asText(), kind), version.path("schema").path("openAPIV3Schema"));
        }
    }

    /** Whether the kind is a built-in one (strategic merge patch serves only those, as in kube-apiserver). */
    boolean isBuiltIn(String apiVersion, String kind) {
        return builtIn.get().kinds().containsKey(key(apiVersion, kind));
    }

    /** The schema of the kind's objects; {@link FieldSchema#UNKNOWN} for a kind the server has no schema of. */
    FieldSchema of(String apiVersion, String kind) {
        BuiltIn types = builtIn.get();
        Optional<String> definition = Optional.ofNullable(types.kinds().get(key(apiVersion, kind)));
        if (definition.isPresent()) {
            return new FieldSchema(types.definitions().path(definition.get()), types::definition, null);
        }
        JsonNode schema = custom.get(key(apiVersion, kind));
        if (schema == null) {
            return FieldSchema.UNKNOWN;
        }
        FieldSchema objectMeta = new FieldSchema(types.definitions().path(BuiltIn.OBJECT_META), types::definition, null);
        return new FieldSchema(schema, types::definition, objectMeta);
    }

    private static String key(String apiVersion, String kind) {
        return apiVersion + "|" + kind;
    }

    /** The document, its definitions, and which definition is each kind's. */
    private record BuiltIn(JsonNode document, JsonNode definitions, Map<String, String> kinds) {
        static final String OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

        JsonNode definition(String name) {
            return definitions.get(name);
        }

        static BuiltIn read(ObjectMapper json) {
            try (InputStream compressed = TypeSchemas.class.getResourceAsStream(OPENAPI_V2)) {
                requireNonNull(compressed, "BUG: " + OPENAPI_V2 + " is not on the class path");
                JsonNode document = json.readTree(new GZIPInputStream(compressed));
                JsonNode definitions = document.path("definitions");
                Map<String, String> kinds = new HashMap<>();
                definitions.properties().forEach(definition -> {
                    for (JsonNode kind : definition.getValue().path("x-kubernetes-group-version-kind")) {
                        String group = kind.path("group").asText();
                        String version = kind.path("version").asText();
                        kinds.putIfAbsent(key(group.isEmpty() ? version : group + "/" + version, kind.path("kind").asText()),
                                definition.getKey());
                    }
                });
                return new BuiltIn(document, definitions, Map.copyOf(kinds));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + OPENAPI_V2, e);
            }
        }
    }
}
