package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.base.Throwables;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatchException;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * fabric8's CRUD mock with what a real API server does and the mock does not: a Binding
 * ({@code pods/NAME/binding} or {@code bindings}) sets the pod's {@code spec.nodeName} (201; 409 if
 * the pod is bound already; 404 if there is no pod), an Eviction ({@code pods/NAME/eviction}) deletes
 * the pod, and the discovery documents kubectl reads are served. Patches are {@link PatchingDispatcher}'s,
 * deletes {@link DeletingDispatcher}'s, scale subresources {@link Scales}'. A GET that asks for a Table
 * (as kubectl does) gets one ({@link Tables}). Every answer says it is JSON.
 */
final class ApiServerDispatcher extends DeletingDispatcher {
    private static final Logger log = LoggerFactory.getLogger(ApiServerDispatcher.class);
    private static final Pattern BINDING = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)/binding(\\?.*)?$");
    private static final Pattern BINDINGS = Pattern.compile("^/api/v1/namespaces/([^/]+)/bindings(\\?.*)?$");
    private static final String NAMESPACES = "/api/v1/namespaces/";
    private static final Pattern EVICTION = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)/eviction(\\?.*)?$");
    private static final String JSON = JSON_TYPE;
    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final Set<String> HEALTH_CHECKS = Set.of("/healthz", "/livez", "/readyz", "/healthz/ping", "/livez/ping", "/readyz/ping");

    private final ObjectMapper json;
    private final Discovery discovery;
    private final Tables tables;
    private final MockErrors errors;
    private final OpenApiDocuments openApi;
    private final RandomGenerator names = new SecureRandom(); // generateName's suffixes, random as kube-apiserver's
    private final ServiceDefaults services = new ServiceDefaults();

    ApiServerDispatcher(List<CustomResourceDefinitionContext> crds, ObjectMapper json, Clock clock) {
        super(crds, json, new TypeSchemas(json), clock);
        this.json = requireNonNull(json, "json is null");
        this.discovery = new Discovery(json);
        this.tables = new Tables(json, clock);
        this.errors = new MockErrors(json);
        this.openApi = new OpenApiDocuments(json, schemas());
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if ("GET".equalsIgnoreCase(request.getMethod())) {
            return respond(request);
        }
        // writes are serialised by the store anyway; one lock makes read-modify-write (binds, merge patches) atomic
        synchronized (this) {
            Optional<String> dryRun = QueryParameters.of(request.getPath()).get("dryRun").or(() -> deleteOptionsDryRun(request));
            if (dryRun.isEmpty()) {
                return recordingManager(request, () -> respond(request));
            }
            if (!dryRun.get().equals("All")) {
                return Statuses.badRequest("dryRun " + dryRun.get() + " is not supported: the supported value is All");
            }
            // the answer is read (and its body copied) before the store is put back
            return dryRun(() -> recordingManager(request, () -> respond(request)));
        }
    }

    /** A DELETE's {@code DeleteOptions} body carries its dry run ({@code "dryRun": ["All"]}), as kubectl sends it. */
    private Optional<String> deleteOptionsDryRun(RecordedRequest request) {
        if (!"DELETE".equalsIgnoreCase(request.getMethod()) || request.getBody() == null || request.getBody().size() == 0) {
            return Optional.empty();
        }
        JsonNode values = readTree(request.getUtf8Body()).path("dryRun");
        return values.isArray() && !values.isEmpty() ? Optional.of(values.path(0).asText()) : Optional.empty();
    }

    private MockResponse respond(RecordedRequest request) {
        try {
            if (String.valueOf(request.getHeader(CONTENT_TYPE)).startsWith(ProtobufBodies.MEDIA_TYPE)) {
                // Go clients write built-in types in protobuf; the store and everything after it read JSON
                ProtobufBodies.Result read = ProtobufBodies.instance().read(request.getBody().getBytes());
                if (read.object().isEmpty()) {
                    return Statuses.unsupportedMediaType(read.problem());
                }
                Headers headers = request.getHeaders().newBuilder().set(CONTENT_TYPE, JSON).build();
                return respondOrThrow(new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(), headers,
                        new Buffer().writeUtf8(read.object().get().toString())));
            }
            return respondOrThrow(request);
        } catch (UncheckedIOException e) {
            return Statuses.badRequest("the request body is not JSON: " + e.getCause().getMessage());
        } catch (BadSelectorException e) {
            return Statuses.badRequest(e.getMessage());
        } catch (KubernetesClientException e) {
            // the mock could not read the body it was sent; it threw rather than answer
            return Statuses.badRequest("the request body is not a readable object: " + rootMessage(e));
        } catch (RuntimeException e) {
            if (Throwables.getCausalChain(e).stream().anyMatch(JsonPatchException.class::isInstance)) {
                // a JSON patch that does not apply (a failed test, a path that is not there): kube-apiserver's patch
                // handler answers errors.NewGenericServerResponse(422, ...), with its generic message
                return Statuses.invalidPatch();
            }
            // an answer, not a connection left hanging
            log.warn("request failed method={} path={}", request.getMethod(), request.getPath(), e);
            return Statuses.internalError(rootMessage(e));
        }
    }

    private MockResponse respondOrThrow(RecordedRequest request) {
        boolean crd = request.getPath().startsWith(CRDS) && !"GET".equalsIgnoreCase(request.getMethod())
                && QueryParameters.of(request.getPath()).get("dryRun").isEmpty();
        boolean asTable = "GET".equalsIgnoreCase(request.getMethod()) && String.valueOf(request.getHeader("Accept")).contains("as=Table");
        boolean table = asTable && !request.getPath().contains("watch=");
        MockResponse response = errors.normalized(request, answer(request));
        if (asTable && response.getWebSocketListener() instanceof WatchStream watch) {
            // kube-apiserver prints each event's object as a Table, the column definitions in the first only
            watch.printWith((object, first) -> tables.row(request.getPath(), readTree(object), first).orElse(object));
        }
        if (response.code() < 300 && (crd || table)) {
            String body = response.getBody().readUtf8();
            if (crd && !body.isEmpty()) {
                tables.register(readTree(body));
                kinds().register(readTree(body));
                schemas().register(readTree(body));
                openApi.register(readTree(body));
                discovery.register(readTree(body));
            }
            Optional<String> printed = table ? tables.table(request.getPath(), readTree(body)) : Optional.empty();
            // reading the body consumed it
            response.setBody(printed.orElse(body));
        }
        if (response.getHeaders() == null || response.header(CONTENT_TYPE) == null) {
            response.setHeader(CONTENT_TYPE, JSON);
        }
        return response;
    }

    private MockResponse answer(RecordedRequest sent) {
        WriteBodies.Prepared prepared = WriteBodies.prepare(sent, kinds().of(sent.getPath()), this::readTree, names, services);
        if (prepared.refusal().isPresent()) {
            return prepared.refusal().get();
        }
        RecordedRequest request = prepared.request();
        String path = request.getPath();
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        if ("GET".equalsIgnoreCase(request.getMethod())) {
            Optional<String> document = discovery.document(bare);
            if (document.isPresent()) {
                return new MockResponse().setResponseCode(200).setBody(document.get());
            }
            if (bare.startsWith("/openapi")) {
                String accept = String.valueOf(request.getHeader("Accept"));
                if (OpenApiV2Protobuf.preferred(accept)) {
                    Optional<byte[]> protobuf = openApi.protobuf(bare);
                    if (protobuf.isPresent()) {
                        // kube-openapi's handler: client-go's discovery asks for it alone (kubectl explain --output=plaintext-openapiv2)
                        return new MockResponse().setResponseCode(200).setHeader(CONTENT_TYPE, OpenApiV2Protobuf.CONTENT_TYPE)
                                .setBody(protobuf.get());
                    }
                }
                if (accept.contains("protobuf") && !accept.contains("json")) {
                    // the v3 documents are served as JSON only; kube-apiserver answers what it cannot give 406
                    return status(406, "NotAcceptable", "only the following media types are accepted: application/json");
                }
                return openApi.document(bare).map(openApiDocument -> new MockResponse().setResponseCode(200).setBody(openApiDocument))
                        .orElseGet(Statuses::unserved);
            }
            Optional<Matcher> podLog = PodLogs.matches(bare);
            if (podLog.isPresent()) {
                Map.Entry<AttributeSet, String> pod = findResource(getKey(podPath(podLog.get().group(1), podLog.get().group(2))));
                return PodLogs.answer(podLog.get().group(1), podLog.get().group(2), pod == null ? MissingNode.getInstance() : readTree(pod.getValue()),
                        QueryParameters.of(path), clock().instant());
            }
            if (HEALTH_CHECKS.contains(bare)) {
                // kube-apiserver's healthz, livez and readyz handlers, with every check passing
                return new MockResponse().setResponseCode(200).setHeader(CONTENT_TYPE, "text/plain; charset=utf-8")
                        .setHeader("X-Content-Type-Options", "nosniff").setBody("ok");
            }
        }
        if (AccessReviews.matches(request.getMethod(), bare)) {
            return AccessReviews.answer(readTree(request.getUtf8Body()))
                    .map(body -> new MockResponse().setResponseCode(201).setBody(body))
                    .orElseGet(() -> status(400, "BadRequest", "the body of an access review must be a JSON object"));
        }
        Optional<MockResponse> scaled = scale(request, bare);
        if (scaled.isPresent()) {
            return scaled.get();
        }
        if (!kinds().serves(bare)) {
            Optional<ResourcePath> target = ResourcePath.parse(bare);
            if (target.isPresent() && !target.get().subresource().isEmpty() && kinds().of(bare).map(ResourceKinds.Kind::custom).orElse(false)) {
                // kube-apiserver's handler of custom resources answers a subresource its CRD does not declare as a missing object
                return Statuses.notFound(target.get());
            }
            // kube-apiserver's not-found handler; the mock answered 200 with the whole store, Secrets included
            return Statuses.unserved();
        }
        if (("POST".equalsIgnoreCase(request.getMethod()) || "PUT".equalsIgnoreCase(request.getMethod())) && FieldValidation.strict(path)) {
            // reading the body consumes it: the request goes on with a copy
            String body = request.getUtf8Body();
            JsonNode object = readTree(body);
            Optional<String> problem = FieldValidation.problem(object, schemas().of(object.path("apiVersion").asText(),
                    object.path("kind").asText()));
            if (problem.isPresent()) {
                return Statuses.badRequest(problem.get());
            }
            return written(new RecordedRequest(request.getHttpVersion(), HttpMethod.valueOf(request.getMethod().toUpperCase(Locale.ROOT)),
                    path, request.getHeaders(), new Buffer().writeUtf8(body)));
        }
        return written(request);
    }

    /** A write (or a read the mock answers) once the path is known to be served and the body checked. */
    private MockResponse written(RecordedRequest request) {
        String path = request.getPath();
        if ("POST".equalsIgnoreCase(request.getMethod())) {
            Optional<ResourcePath> created = ResourcePath.parse(path);
            if (created.isPresent() && !created.get().namespace().isEmpty()
                    && findResource(getKey(NAMESPACES + created.get().namespace())) == null) {
                // kube-apiserver's namespace lifecycle admission: a namespaced object needs its namespace
                return Statuses.notFound(new ResourcePath("", "v1", "", "namespaces", created.get().namespace(), ""));
            }
            Matcher subresource = BINDING.matcher(path);
            Matcher collection = BINDINGS.matcher(path);
            if (subresource.matches() || collection.matches()) {
                // reading the body consumes it: only here
                JsonNode binding = readTree(request.getUtf8Body());
                String namespace = subresource.matches() ? subresource.group(1) : collection.group(1);
                String pod = subresource.matches() ? subresource.group(2) : binding.path("metadata").path("name").asText();
                return bind(request, namespace, pod, binding);
            }
            Matcher eviction = EVICTION.matcher(path);
            if (eviction.matches()) {
                MockResponse deleted = deleteWithDependents(podPath(eviction.group(1), eviction.group(2)));
                return deleted.code() >= 300 ? notFound(eviction.group(1), eviction.group(2)) : status(201, "", "");
            }
        }
        if ("DELETE".equalsIgnoreCase(request.getMethod())) {
            return DeleteAnswers.answer(path, deleteWithDependents(path), this::readTree);
        }
        if ("PATCH".equalsIgnoreCase(request.getMethod())) {
            Optional<MockResponse> patched = patch(request, path);
            if (patched.isPresent()) {
                return patched.get();
            }
        }
        return super.dispatch(request);
    }

    @Override
    MockResponse create(RecordedRequest request, String collectionPath, ObjectNode object) {
        return answer(new RecordedRequest(request.getHttpVersion(), HttpMethod.POST, collectionPath,
                Headers.builder().add(CONTENT_TYPE, JSON).build(), new Buffer().writeUtf8(object.toString())));
    }

    /** Check and set under one lock, so two binds of one pod cannot both succeed. */
    private synchronized MockResponse bind(RecordedRequest request, String namespace, String pod, JsonNode binding) {
        String node = binding.path("target").path("name").asText();
        if (node.isEmpty()) {
            return status(400, "BadRequest", "the binding of pod " + namespace + "/" + pod + " has no target node");
        }
        String podPath = podPath(namespace, pod);
        Map.Entry<AttributeSet, String> current = findResource(getKey(podPath));
        if (current == null) {
            return notFound(namespace, pod);
        }
        JsonNode stored = readTree(current.getValue());
        String existing = stored.path("spec").path("nodeName").asText("");
        if (!existing.isEmpty()) {
            return Statuses.conflict("pods/binding", new ResourcePath("", "v1", namespace, "pods", pod, "binding"),
                    "pod " + pod + " is already assigned to node \"" + existing + "\"");
        }
        ObjectNode bound = ((ObjectNode) stored).deepCopy();
        PodDefaults.onBind(bound, node, binding.path("metadata").path("annotations"), now());
        bound.withObjectProperty("metadata").set("resourceVersion", stored.path("metadata").path("resourceVersion"));
        MockResponse patched = replaceable(stored, bound) ? replace(podPath, current, stored, bound, false)
                : write(request, podPath, current, stored, bound);
        return patched.code() >= 300 ? patched : status(201, "", "");
    }

    private static String podPath(String namespace, String pod) {
        return "/api/v1/namespaces/" + namespace + "/pods/" + pod;
    }

    private static MockResponse notFound(String namespace, String pod) {
        return Statuses.notFound(new ResourcePath("", "v1", namespace, "pods", pod, ""));
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage());
    }

    private MockResponse status(int code, String reason, String message) {
        String body = json.createObjectNode()
                .put("kind", "Status")
                .put("apiVersion", "v1")
                .put("status", code < 300 ? "Success" : "Failure")
                .put("reason", reason)
                .put("message", message)
                .put("code", code)
                .toString();
        return new MockResponse().setResponseCode(code).setBody(body);
    }
}
