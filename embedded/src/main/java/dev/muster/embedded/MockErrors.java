package dev.muster.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mock's error answers rewritten as kube-apiserver gives them ({@link Statuses}): it answered a
 * missing object 404 with no body, a create of an existing one 409 {@code Invalid} ("The Pod "" is
 * invalid" to kubectl), a stale update 409 {@code Invalid}, and a name missing or not matching the
 * URL with reason {@code Invalid}; clients that test the reason ({@code IsAlreadyExists},
 * {@code IsConflict}) took the wrong branch.
 */
final class MockErrors {
    private static final Pattern EXISTING = Pattern.compile("'(.*)' already exists");
    private static final String UNSERVED = "the server could not find the requested resource";
    private static final String MODIFIED = "the object has been modified; please apply your changes to the latest version and try again";

    private final ObjectMapper json;

    MockErrors(ObjectMapper json) {
        this.json = json;
    }

    MockResponse normalized(RecordedRequest request, MockResponse response) {
        if (response.code() < 400 || response.getWebSocketListener() != null) {
            return response;
        }
        Optional<ResourcePath> parsed = ResourcePath.parse(request.getPath());
        if (parsed.isEmpty()) {
            return response;
        }
        ResourcePath path = parsed.get();
        String body = response.getBody() == null ? "" : response.getBody().readUtf8();
        // reading the body consumed it
        response.setBody(body);
        JsonNode status = read(body);
        String message = status.path("message").asText("");
        String reason = status.path("reason").asText("");
        String method = request.getMethod().toUpperCase(Locale.ROOT);
        if (response.code() == 404 && path.namesObject() && !message.equals(UNSERVED) && reason.isEmpty()) {
            return Statuses.notFound(path);
        }
        if (response.code() == 409 && method.equals("POST") && reason.equals("Invalid") && message.contains("already exists")) {
            // the mock names the object in its message: Pod 'NAME' already exists
            Matcher named = EXISTING.matcher(message);
            return named.find() ? Statuses.alreadyExists(path, named.group(1)) : response;
        }
        if (response.code() == 409 && reason.equals("Invalid") && message.startsWith("Operation cannot be fulfilled")) {
            return Statuses.conflict(path.qualifiedResource(), path, MODIFIED);
        }
        if (response.code() == 422 && reason.equals("Invalid") && message.endsWith("is invalid")
                && status.path("details").path("causes").path(0).path("message").asText().contains("name or generateName is required")) {
            return Statuses.nameRequired(status.path("details").path("kind").asText(), path.group());
        }
        if (response.code() == 400 && reason.equals("Invalid") && message.contains("does not match the name on the URL")) {
            return Statuses.badRequest(message);
        }
        return response;
    }

    private JsonNode read(String text) {
        if (text == null || text.isEmpty()) {
            return json.createObjectNode();
        }
        try {
            return json.readTree(text);
        } catch (IOException e) {
            return json.createObjectNode();
        }
    }
}
