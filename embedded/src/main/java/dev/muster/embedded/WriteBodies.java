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
import java.util.random.RandomGenerator;

/**
 * What kube-apiserver does with the body of a create or replace before it stores it, where the mock
 * does otherwise:
 * <ul>
 *   <li>it decodes the body with the kind and version its path names as defaults, so a body without
 *       {@code kind} or {@code apiVersion} is the path's kind: the Python client sends a dict as
 *       written, the JavaScript one a plain object, and both leave the two out (the mock refused such
 *       a body: "kind is required");
 *   <li>it fills in the defaults of the kinds whose defaults are known here (a new pod's,
 *       {@link PodDefaults}; {@link WorkloadDefaults}; a Service's, and a new one's addresses, {@link ServiceDefaults});
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

    /** apimachinery's {@code util/rand} alphabet and {@code SimpleNameGenerator}'s lengths. */
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final int SUFFIX_LENGTH = 5;
    private static final int MAX_PREFIX = 63 - SUFFIX_LENGTH;

    private WriteBodies() {}

    /**
     * Prepares a JSON POST or PUT of an object (or its status) of a kind the server stores; any other
     * request goes on unread.
     */
    static Prepared prepare(RecordedRequest request, Optional<ResourceKinds.Kind> stored, Function<String, JsonNode> readTree,
            RandomGenerator names, ServiceDefaults services) {
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
            boolean typeMissing = !fields.hasNonNull("kind") || !fields.hasNonNull("apiVersion");
            if (!fields.hasNonNull("apiVersion")) {
                fields.put("apiVersion", stored.get().apiVersion());
            }
            if (!fields.hasNonNull("kind")) {
                fields.put("kind", stored.get().kind());
            }
            boolean create = method.equals("POST") && path.get().name().isEmpty();
            boolean generated = create && generateName(fields, names);
            boolean pod = create && stored.get().apiVersion().equals("v1") && stored.get().kind().equals("Pod");
            if (pod) {
                PodDefaults.onCreate(fields);
            }
            boolean service = stored.get().apiVersion().equals("v1") && stored.get().kind().equals("Service") && path.get().subresource().isEmpty();
            if (service) {
                ServiceDefaults.decode(fields);
                if (create) {
                    services.onCreate(fields);
                }
            }
            if (WorkloadDefaults.apply(fields, create) || typeMissing || generated || pod || service) {
                body = fields.toString();
            }
            Optional<MockResponse> refusal = create ? ObjectNames.refusal(stored.get(), fields.path("metadata").path("name").asText(""))
                    : Optional.empty();
            if (refusal.isPresent()) {
                return new Prepared(request, refusal);
            }
        }
        return new Prepared(new RecordedRequest(request.getHttpVersion(), HttpMethod.valueOf(method), request.getPath(), request.getHeaders(),
                new Buffer().writeUtf8(body)), Optional.empty());
    }

    /**
     * A name from {@code metadata.generateName} when there is none, as apimachinery's {@code
     * SimpleNameGenerator} makes it: the prefix and five characters of its alphabet (no vowels, so no
     * words). The mock appended a UUID, which made pod names of 52 characters that look like no cluster's.
     *
     * @return whether a name was made
     */
    static boolean generateName(ObjectNode object, RandomGenerator names) {
        JsonNode metadata = object.path("metadata");
        String prefix = metadata.path("generateName").asText("");
        if (!(metadata instanceof ObjectNode fields) || prefix.isEmpty() || !metadata.path("name").asText("").isEmpty()) {
            return false;
        }
        StringBuilder name = new StringBuilder(prefix.length() > MAX_PREFIX ? prefix.substring(0, MAX_PREFIX) : prefix);
        for (int index = 0; index < SUFFIX_LENGTH; index++) {
            name.append(ALPHABET.charAt(names.nextInt(ALPHABET.length())));
        }
        fields.put("name", name.toString());
        return true;
    }
}
