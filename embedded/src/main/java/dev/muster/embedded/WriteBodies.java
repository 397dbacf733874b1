package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * What kube-apiserver does with the body of a create or replace before it stores it, where the mock
 * does otherwise:
 * <ul>
 *   <li>it decodes the body with the kind and version its path names as defaults, so a body without
 *       {@code kind} or {@code apiVersion} is the path's kind: the Python client sends a dict as
 *       written, the JavaScript one a plain object, and both leave the two out (the mock refused such
 *       a body: "kind is required");
 *   <li>it refuses a new object whose name its kind does not allow ({@link ObjectNames}), which the
 *       mock stored as it came.
 * </ul>
 */
final class WriteBodies {
    /** The request to go on with (a copy when its body was read, since reading consumes it), or the refusal. */
    record Prepared(RecordedRequest request, Optional<MockResponse> refusal) {
        Prepared {
            requireNonNull(request, "request is null");
            requireNonNull(refusal, "refusal is null");
        }
    }

    private WriteBodies() {}

    /**
     * Prepares a JSON POST or PUT of an object (or its status) of a kind the server stores; any other
     * request goes on unread.
     */
    static Prepared prepare(RecordedRequest request, Optional<ResourceKinds.Kind> stored, Function<String, JsonNode> readTree) {
        String method = request.getMethod().toUpperCase(Locale.ROOT);
        boolean write = method.equals("POST") || method.equals("PUT");
        Optional<ResourcePath> path = ResourcePath.parse(request.getPath());
        boolean object = path.isPresent() && (path.get().subresource().isEmpty() || path.get().subresource().equals("status"));
        boolean yaml = String.valueOf(request.getHeader("Content-Type")).contains("yaml");
        if (!write || !object || yaml || stored.isEmpty() || request.getBody() == null || request.getBody().size() == 0) {
            return new Prepared(request, Optional.empty());
        }
        // reading the body consumes it: the request goes on with a copy either way
        String body = request.getUtf8Body();
        JsonNode tree = readTree.apply(body);
        if (tree instanceof ObjectNode fields) {
            if (!fields.hasNonNull("kind") || !fields.hasNonNull("apiVersion")) {
                if (!fields.hasNonNull("apiVersion")) {
                    fields.put("apiVersion", stored.get().apiVersion());
                }
                if (!fields.hasNonNull("kind")) {
                    fields.put("kind", stored.get().kind());
                }
                body = fields.toString();
            }
            boolean create = method.equals("POST") && path.get().name().isEmpty();
            Optional<MockResponse> refusal = create ? ObjectNames.refusal(stored.get(), fields.path("metadata").path("name").asText(""))
                    : Optional.empty();
            if (refusal.isPresent()) {
                return new Prepared(request, refusal);
            }
        }
        return new Prepared(new RecordedRequest(request.getHttpVersion(), HttpMethod.valueOf(method), request.getPath(), request.getHeaders(),
                new Buffer().writeUtf8(body)), Optional.empty());
    }
}
