package dev.muster.engine.kubernetes;

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
 * The CRUD mock with two API-server behaviours it lacks: a Binding ({@code pods/{name}/binding} or
 * {@code bindings}) sets {@code spec.nodeName} (watchers see MODIFIED; 409 if already bound, 404 if no
 * pod), and an Eviction ({@code pods/{name}/eviction}) deletes the pod (404 if no pod).
 */
public class BindingAwareCrudDispatcher extends KubernetesCrudDispatcher {
    private static final Pattern BINDING = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)/binding(\\?.*)?$");
    private static final Pattern BINDINGS = Pattern.compile("^/api/v1/namespaces/([^/]+)/bindings(\\?.*)?$");
    private static final Pattern EVICTION = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)/eviction(\\?.*)?$");

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
        return super.dispatch(request);
    }

    private MockResponse bind(RecordedRequest request, String namespace, String pod, String node) {
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
        RecordedRequest patch = new RecordedRequest(request.getHttpVersion(), HttpMethod.PATCH, podPath,
                Headers.builder().add("Content-Type", "application/merge-patch+json").build(),
                new Buffer().writeUtf8("{\"spec\":{\"nodeName\":\"" + node + "\"}}"));
        MockResponse patched = handlePatch(patch);
        return patched.code() >= 300 ? patched : status(201, "", "");
    }

    static MockResponse status(int code, String reason, String message) {
        return new MockResponse().setResponseCode(code).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\""
                + (code < 300 ? "Success" : "Failure") + "\",\"reason\":\"" + reason + "\",\"message\":\"" + message
                + "\",\"code\":" + code + "}");
    }
}
