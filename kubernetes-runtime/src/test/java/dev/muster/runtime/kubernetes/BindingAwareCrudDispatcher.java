package dev.muster.runtime.kubernetes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CRUD mock with three API-server behaviours it lacks or gets wrong: a Binding
 * ({@code pods/{name}/binding} or {@code bindings}) sets {@code spec.nodeName} (watchers see MODIFIED;
 * 409 if already bound, 404 if no pod), an Eviction ({@code pods/{name}/eviction}) deletes the pod (404
 * if no pod), and a JSON merge patch is applied as RFC 7386 says ({@link JsonMergePatch}): lists are
 * replaced, not appended to, and a {@code null} removes its key.
 */
public class BindingAwareCrudDispatcher extends KubernetesCrudDispatcher {
    private static final Pattern BINDING = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)/binding(\\?.*)?$");
    private static final Pattern BINDINGS = Pattern.compile("^/api/v1/namespaces/([^/]+)/bindings(\\?.*)?$");
    private static final Pattern EVICTION = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)/eviction(\\?.*)?$");
    private static final String MERGE_PATCH = "application/merge-patch+json";
    private static final ObjectMapper JSON = new ObjectMapper();

    public BindingAwareCrudDispatcher(List<CustomResourceDefinitionContext> crds) {
        super(crds);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if ("POST".equalsIgnoreCase(request.getMethod())) {
            String path = request.getPath();
            Matcher subresource = BINDING.matcher(path);
            Matcher collection = BINDINGS.matcher(path);
            Matcher eviction = EVICTION.matcher(path);
            if (subresource.matches() || collection.matches()) {
                // reading the body consumes it: only here
                Binding binding = Serialization.unmarshal(request.getUtf8Body(), Binding.class);
                String namespace = subresource.matches() ? subresource.group(1) : collection.group(1);
                String pod = subresource.matches() ? subresource.group(2) : binding.getMetadata().getName();
                return bind(request, namespace, pod, binding.getTarget().getName());
            }
            if (eviction.matches()) {
                String podPath = "/api/v1/namespaces/" + eviction.group(1) + "/pods/" + eviction.group(2);
                MockResponse deleted = handleDelete(podPath);
                return deleted.code() >= 300 ? status(404, "NotFound", "pods \\\"" + eviction.group(2) + "\\\" not found")
                        : status(201, "", "");
            }
        }
        if ("PATCH".equalsIgnoreCase(request.getMethod()) && String.valueOf(request.getHeader("Content-Type")).contains(MERGE_PATCH)) {
            try {
                return mergePatch(request, request.getPath(), JSON.readTree(request.getUtf8Body()));
            } catch (JsonProcessingException e) {
                return status(400, "BadRequest", "the patch is not JSON");
            }
        }
        return super.dispatch(request);
    }

    /**
     * Applies the patch to the stored object and stores the result with a PUT, which the mock does
     * right (for a {@code /status} path, only the status changes). The lock keeps the object from
     * changing between the read and the write.
     */
    private synchronized MockResponse mergePatch(RecordedRequest request, String path, JsonNode patch) throws JsonProcessingException {
        String objectPath = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        String readPath = objectPath.endsWith("/status") ? objectPath.substring(0, objectPath.length() - "/status".length()) : objectPath;
        MockResponse current = handleGet(readPath);
        if (current.code() != 200) {
            return status(404, "NotFound", readPath + " not found");
        }
        JsonNode stored = JSON.readTree(current.getBody().readUtf8());
        JsonNode merged = JsonMergePatch.apply(stored, patch);
        if (merged instanceof ObjectNode object && object.path("metadata") instanceof ObjectNode metadata) {
            // a patch applies to what is stored: it never conflicts
            metadata.set("resourceVersion", stored.path("metadata").path("resourceVersion"));
        }
        return handleUpdate(new RecordedRequest(request.getHttpVersion(), HttpMethod.PUT, objectPath,
                Headers.builder().add("Content-Type", "application/json").build(), new Buffer().writeUtf8(merged.toString())));
    }

    /** Check and set under one lock, so two binds of one pod cannot both succeed. */
    private synchronized MockResponse bind(RecordedRequest request, String namespace, String pod, String node) {
        String podPath = "/api/v1/namespaces/" + namespace + "/pods/" + pod;
        MockResponse current = handleGet(podPath);
        if (current.code() != 200) {
            return status(404, "NotFound", "pods \\\"" + pod + "\\\" not found");
        }
        Pod stored = Serialization.unmarshal(current.getBody().readUtf8(), Pod.class);
        String existing = stored.getSpec() == null ? null : stored.getSpec().getNodeName();
        if (existing != null && !existing.isEmpty()) {
            return status(409, "Conflict", "pod " + pod + " is already assigned to node " + existing);
        }
        ObjectNode patch = JSON.createObjectNode();
        patch.putObject("spec").put("nodeName", node);
        MockResponse patched;
        try {
            patched = mergePatch(request, podPath, patch);
        } catch (JsonProcessingException e) {
            return status(500, "InternalError", "the stored pod is not JSON");
        }
        return patched.code() >= 300 ? patched : status(201, "", "");
    }

    static MockResponse status(int code, String reason, String message) {
        return new MockResponse().setResponseCode(code).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\""
                + (code < 300 ? "Success" : "Failure") + "\",\"reason\":\"" + reason + "\",\"message\":\"" + message
                + "\",\"code\":" + code + "}");
    }
}
