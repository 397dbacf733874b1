package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The PATCH requests kube-apiserver serves, by content type: JSON merge patch (RFC 7386) for every
 * kind; strategic merge patch for the built-in kinds, with the patch strategies and merge keys of
 * their OpenAPI schema, and 415 for custom resources, as kube-apiserver answers; server-side apply
 * ({@code application/apply-patch+yaml}) for every kind, creating the object when it does not exist.
 * JSON patch is the mock's own. Each reads the stored object and writes the result under the
 * dispatcher's lock, so nothing changes between the read and the write.
 */
abstract class PatchingDispatcher extends IndexedCrudDispatcher {
    static final String CONTENT_TYPE = "Content-Type";
    static final String JSON_TYPE = "application/json";
    private static final String STRATEGIC = "application/strategic-merge-patch+json";
    private static final String MERGE_PATCH = "application/merge-patch+json";
    private static final String APPLY = "application/apply-patch+yaml";
    private static final String STATUS_SUFFIX = "/status";
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ISO_INSTANT;

    private final ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    private final TypeSchemas schemas;
    private final Clock clock;
    /** Who makes the create, update or patch under way, to record as an {@code Update} manager; null when none is. Only under this monitor. */
    private UpdateManagers.Writer writer;

    PatchingDispatcher(List<CustomResourceDefinitionContext> crds, ObjectMapper json, TypeSchemas schemas, Clock clock) {
        super(crds, json);
        this.schemas = requireNonNull(schemas, "schemas is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Creates the object at the collection path as a POST there would, with the request's query; the answer is the create's. */
    abstract MockResponse create(RecordedRequest request, String collectionPath, ObjectNode object);

    TypeSchemas schemas() {
        return schemas;
    }

    /** The answer to a PATCH of one of the types served here; empty when the mock's own (JSON patch) answers it. */
    final synchronized Optional<MockResponse> patch(RecordedRequest request, String path) {
        String contentType = String.valueOf(request.getHeader(CONTENT_TYPE));
        if (contentType.startsWith(MERGE_PATCH)) {
            return Optional.of(patchStored(request, path, (stored, body) -> MergePatch.apply(stored, readTree(body))));
        }
        if (contentType.startsWith(STRATEGIC)) {
            return Optional.of(strategic(request, path));
        }
        if (contentType.startsWith(APPLY)) {
            return Optional.of(apply(request, path));
        }
        return Optional.empty();
    }

    /**
     * The answer to a GET, PUT or PATCH of a workload's {@code scale} subresource ({@link Scales}); empty when
     * {@code bare} names none. A patch (merge or strategic: the same for a Scale's fields) applies to the Scale.
     */
    final synchronized Optional<MockResponse> scale(RecordedRequest request, String bare) {
        Optional<ResourcePath> workload = Scales.workload(bare);
        if (workload.isEmpty()) {
            return Optional.empty();
        }
        String objectPath = Scales.objectPath(workload.get());
        Map.Entry<AttributeSet, String> current = findResource(getKey(objectPath));
        if (current == null) {
            return Optional.of(Statuses.notFound(workload.get()));
        }
        JsonNode stored = readTree(current.getValue());
        String method = request.getMethod().toUpperCase(Locale.ROOT);
        String contentType = String.valueOf(request.getHeader(CONTENT_TYPE));
        JsonNode scale;
        if (method.equals("GET")) {
            return Optional.of(new MockResponse().setResponseCode(200).setBody(Scales.of(stored).toString()));
        } else if (method.equals("PUT")) {
            scale = readTree(request.getUtf8Body());
        } else if (method.equals("PATCH") && (contentType.startsWith(MERGE_PATCH) || contentType.startsWith(STRATEGIC))) {
            scale = MergePatch.apply(Scales.of(stored), readTree(request.getUtf8Body()));
        } else {
            return Optional.of(method.equals("PATCH") ? Statuses.unsupportedMediaType() : Statuses.withoutReason(405, "the server does not allow this method"));
        }
        Optional<MockResponse> refusal = Scales.refusal(scale, workload.get().name());
        if (refusal.isPresent()) {
            return refusal;
        }
        if (Scales.stale(scale, stored)) {
            return Optional.of(Statuses.conflict(workload.get().qualifiedResource(), workload.get(),
                    "the object has been modified; please apply your changes to the latest version and try again"));
        }
        MockResponse written = replace(objectPath, current, stored, Scales.scaled(stored, scale));
        return Optional.of(written.code() == 200 ? written.setBody(Scales.of(readTree(written.getBody().readUtf8())).toString()) : written);
    }

    private MockResponse strategic(RecordedRequest request, String path) {
        return patchStored(request, path, (stored, body) -> {
            String apiVersion = stored.path("apiVersion").asText();
            String kind = stored.path("kind").asText();
            if (!schemas.isBuiltIn(apiVersion, kind)) {
                throw new UnsupportedPatchException();
            }
            return StrategicMergePatch.apply(stored, readTree(body), schemas.of(apiVersion, kind));
        });
    }

    private MockResponse patchStored(RecordedRequest request, String path, Patcher patcher) {
        String objectPath = bare(path);
        Map.Entry<AttributeSet, String> current = findResource(getKey(withoutStatus(objectPath)));
        if (current == null) {
            return notFound(path);
        }
        JsonNode stored = readTree(current.getValue());
        try {
            JsonNode patched = patcher.patch(stored, request.getUtf8Body());
            Optional<String> problem = FieldValidation.strict(path)
                    ? FieldValidation.problem(patched, schemas.of(patched.path("apiVersion").asText(), patched.path("kind").asText()))
                    : Optional.empty();
            if (problem.isPresent()) {
                return Statuses.badRequest(problem.get());
            }
            return write(request, objectPath, current, stored, patched);
        } catch (UnsupportedPatchException e) {
            return Statuses.unsupportedMediaType();
        } catch (StrategicMergePatch.InvalidPatchException e) {
            return e.getMessage().startsWith("json:") ? Statuses.badRequest(e.getMessage()) : Statuses.withoutReason(500, e.getMessage());
        }
    }

    private MockResponse apply(RecordedRequest request, String path) {
        QueryParameters query = QueryParameters.of(path);
        String manager = query.get("fieldManager").orElse("");
        if (manager.isEmpty()) {
            return Statuses.badRequest("PATCH " + bare(path) + ": fieldManager is required for apply requests");
        }
        JsonNode body;
        try {
            body = yaml.readTree(request.getUtf8Body());
        } catch (IOException e) {
            return Statuses.badRequest("error decoding YAML: " + e.getMessage());
        }
        ResourcePath target = ResourcePath.parse(path).orElseThrow();
        if (!(body instanceof ObjectNode config) || config.path("apiVersion").asText().isEmpty() || config.path("kind").asText().isEmpty()) {
            return Statuses.badRequest("the applied configuration of " + target.qualifiedResource() + " \"" + target.name()
                    + "\" must be an object with apiVersion and kind: " + body);
        }
        ObjectNode metadata = config.get("metadata") instanceof ObjectNode existing ? existing : config.putObject("metadata");
        String name = metadata.path("name").asText("");
        if (!name.isEmpty() && !name.equals(target.name())) {
            return Statuses.badRequest("the name of the object (" + name + ") does not match the name on the URL (" + target.name() + ")");
        }
        metadata.put("name", target.name());
        if (!target.namespace().isEmpty()) {
            metadata.put("namespace", target.namespace());
        }
        String objectPath = bare(path);
        String subresource = objectPath.endsWith(STATUS_SUFFIX) ? "status" : "";
        Map.Entry<AttributeSet, String> current = findResource(getKey(withoutStatus(objectPath)));
        if (current == null && !subresource.isEmpty()) {
            return notFound(path);
        }
        FieldSchema schema = schemas.of(config.path("apiVersion").asText(), config.path("kind").asText());
        String now = SECONDS.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
        try {
            if (current == null) {
                ObjectNode created = ServerSideApply.apply(null, config, schema, manager, query.flag("force"), subresource, now);
                String collection = withoutStatus(objectPath).substring(0, withoutStatus(objectPath).lastIndexOf('/'));
                return create(request, collection + query(path), created);
            }
            JsonNode stored = readTree(current.getValue());
            ObjectNode applied = ServerSideApply.apply((ObjectNode) stored, config, schema, manager, query.flag("force"), subresource, now);
            return write(request, objectPath, current, stored, applied);
        } catch (ServerSideApply.ConflictException e) {
            return Statuses.applyConflict(e.getMessage(), e.conflicts().stream()
                    .map(conflict -> JsonNodeFactory.instance.objectNode().put("reason", "FieldManagerConflict")
                            .put("message", ServerSideApply.ConflictException.owner(conflict))
                            .put("field", FieldSet.printed(conflict.path())))
                    .toList());
        }
    }

    Clock clock() {
        return clock;
    }

    /**
     * Answers the request, a create, update or patch of an object or its status other than an apply, with what
     * it stores recording its manager ({@link UpdateManagers}): the {@code fieldManager} parameter, else the User-Agent's.
     * A bind, an eviction, a scale or an apply records none, as in kube-apiserver.
     */
    final synchronized <T> T recordingManager(RecordedRequest request, Supplier<T> answer) {
        String method = request.getMethod().toUpperCase(Locale.ROOT);
        boolean write = method.equals("POST") || method.equals("PUT")
                || (method.equals("PATCH") && !String.valueOf(request.getHeader(CONTENT_TYPE)).startsWith(APPLY));
        Optional<ResourcePath> target = ResourcePath.parse(request.getPath());
        if (!write || target.isEmpty() || !(target.get().subresource().isEmpty() || target.get().subresource().equals("status"))
                || kinds().of(request.getPath()).isEmpty()) {
            return answer.get();
        }
        String manager = UpdateManagers.manager(QueryParameters.of(request.getPath()).get("fieldManager").orElse(""),
                Optional.ofNullable(request.getHeader("User-Agent")).orElse(""));
        writer = new UpdateManagers.Writer(manager, target.get().subresource(), now());
        try {
            return answer.get();
        } finally {
            writer = null;
        }
    }

    /**
     * A write of the mock's (a create, a PUT, a JSON patch) stores its manager's fields too, and a Node's defaults
     * ({@link NodeDefaults}), and is answered with them.
     */
    @Override
    public synchronized void processEvent(String path, AttributeSet pathAttributes, AttributeSet oldAttributes,
            GenericKubernetesResource resource, String newState) {
        if (writer == null || newState == null || !(readTree(newState) instanceof ObjectNode written)) {
            super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
            return;
        }
        // kube-apiserver decodes what is written, and so defaults it, before it stores it
        NodeDefaults.apply(written);
        String existing = oldAttributes == null ? null : map.get(oldAttributes);
        recordManagers(existing == null ? null : readTree(existing), written, path);
        String state = written.toString();
        answerWith(state);
        super.processEvent(path, pathAttributes, oldAttributes, resource, state);
    }

    @Override
    void recordManagers(JsonNode before, ObjectNode after, String path) {
        if (writer == null) {
            return;
        }
        String apiVersion = after.path("apiVersion").asText();
        String kind = after.path("kind").asText();
        boolean builtIn = schemas.isBuiltIn(apiVersion, kind);
        FieldSchema schema = schemas.of(apiVersion, kind);
        boolean statusPath = bare(path).endsWith(STATUS_SUFFIX);
        boolean statusIgnored = !statusPath && (builtIn ? schema.declares("status") : isStatusSubresourceEnabledForResource(bare(path)));
        UpdateManagers.record(before, after, schema, writer, builtIn, statusIgnored);
    }

    /** The time as kube-apiserver writes it in a condition or managed fields entry: RFC 3339, in seconds. */
    String now() {
        return SECONDS.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
    }

    /** Stores the new state of the object; a patch never conflicts, it applies to what is stored. */
    MockResponse write(RecordedRequest request, String objectPath, Map.Entry<AttributeSet, String> current, JsonNode stored, JsonNode merged) {
        if (merged instanceof ObjectNode object && object.path("metadata") instanceof ObjectNode metadata) {
            // kube-apiserver decodes the patched object, and so defaults it, before it stores it
            NodeDefaults.apply(object);
            metadata.set("resourceVersion", stored.path("metadata").path("resourceVersion"));
            if (replaceable(stored, object)) {
                return replace(objectPath, current, stored, object);
            }
        }
        // what the mock's PUT checks and answers (a missing kind, a new name, a deletion)
        return handleUpdate(new RecordedRequest(request.getHttpVersion(), HttpMethod.PUT, objectPath,
                Headers.builder().add(CONTENT_TYPE, JSON_TYPE).build(), new Buffer().writeUtf8(merged.toString())));
    }

    /** Whether {@link #replace} stores {@code updated} as the mock's PUT would; otherwise the caller takes the PUT. */
    static boolean replaceable(JsonNode currentTree, JsonNode updated) {
        JsonNode metadata = updated.path("metadata");
        return !updated.path("kind").asText().isEmpty() && !updated.path("apiVersion").asText().isEmpty()
                && metadata.path("name").equals(currentTree.path("metadata").path("name"))
                && metadata.path("namespace").equals(currentTree.path("metadata").path("namespace"))
                && metadata.path("deletionTimestamp").isMissingNode();
    }

    static String bare(String path) {
        return path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    }

    private static String query(String path) {
        return path.contains("?") ? path.substring(path.indexOf('?')) : "";
    }

    private static String withoutStatus(String objectPath) {
        return objectPath.endsWith(STATUS_SUFFIX) ? objectPath.substring(0, objectPath.length() - STATUS_SUFFIX.length()) : objectPath;
    }

    private static MockResponse notFound(String path) {
        return ResourcePath.parse(path).map(Statuses::notFound).orElseGet(Statuses::unserved);
    }

    /** A patch of one content type, from the stored object and the request's body to the object to store. */
    @FunctionalInterface
    private interface Patcher {
        JsonNode patch(JsonNode stored, String body);
    }

    /** kube-apiserver serves strategic merge patch for built-in kinds only. */
    private static final class UnsupportedPatchException extends RuntimeException {
        private static final long serialVersionUID = 1;
    }
}
