package dev.muster.bridge.argo.server;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import dev.muster.bridge.argo.generated.api.InfoServiceApi;
import dev.muster.bridge.argo.generated.api.WorkflowServiceApi;
import dev.muster.bridge.argo.generated.client.ApiClient;
import dev.muster.bridge.argo.generated.client.ApiException;
import dev.muster.bridge.argo.generated.model.IoArgoprojWorkflowV1alpha1Version;
import dev.muster.bridge.argo.generated.model.IoArgoprojWorkflowV1alpha1WorkflowResumeRequest;
import dev.muster.bridge.argo.generated.model.IoArgoprojWorkflowV1alpha1WorkflowSuspendRequest;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Optional;

/**
 * The Argo Server's workflow API ({@code /api/v1/workflows/...}, Argo v4.0.5), through the client generated
 * from Argo's OpenAPI document: the calls Muster makes when an Argo Server is configured. Workflows come
 * back as JSON trees, as the Kubernetes API gives them. Each call fails with an
 * {@link ArgoServerException} naming the server, the call, the workflow, the status and Argo's message;
 * none is retried here.
 */
public final class ArgoServerClient {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ArgoServerSettings settings;
    private final WorkflowServiceApi workflows;
    private final InfoServiceApi info;

    private ArgoServerClient(ArgoServerSettings settings, ApiClient client) {
        this.settings = settings;
        this.workflows = new WorkflowServiceApi(client);
        this.info = new InfoServiceApi(client);
    }

    public static ArgoServerClient create(ArgoServerSettings settings) {
        requireNonNull(settings, "settings is null");
        ApiClient client = new ApiClient(HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT), ApiClient.createDefaultObjectMapper(),
                settings.url().toString());
        client.setReadTimeout(READ_TIMEOUT);
        settings.token().ifPresent(token -> client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + token)));
        return new ArgoServerClient(settings, client);
    }

    /** Where the server is. */
    public URI url() {
        return settings.url();
    }

    /** The server's version ({@code GET /api/v1/version}), e.g. {@code v4.0.5}; also a check that it answers and takes the token. */
    public String version() {
        IoArgoprojWorkflowV1alpha1Version version = call("version", "", () -> info.infoServiceGetVersion());
        return version.getVersion();
    }

    /** The workflow, or empty when the server says there is none (404). */
    public Optional<JsonNode> get(String namespace, String name) {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        try {
            return Optional.of(call("get", namespace + "/" + name, () -> workflows.workflowServiceGetWorkflow(
                    WorkflowServiceApi.APIWorkflowServiceGetWorkflowRequest.newBuilder().namespace(namespace).name(name).build())));
        } catch (ArgoServerException e) {
            if (e.status().orElse(0) == HttpURLConnection.HTTP_NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** The namespace's workflows, those matching {@code labelSelector} when one is given. */
    public ImmutableList<JsonNode> list(String namespace, Optional<String> labelSelector) {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(labelSelector, "labelSelector is null");
        JsonNode list = call("list", namespace, () -> workflows.workflowServiceListWorkflows(
                WorkflowServiceApi.APIWorkflowServiceListWorkflowsRequest.newBuilder().namespace(namespace)
                        .listOptionsLabelSelector(labelSelector.orElse(null)).build()));
        // Argo's server leaves "items" out (null in its Go struct) when there are none
        return ImmutableList.copyOf(list.path("items"));
    }

    /** Resumes a suspended workflow ({@code argo resume}: clears {@code spec.suspend}); returns it as the server wrote it. */
    public JsonNode resume(String namespace, String name) {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        return call("resume", namespace + "/" + name, () -> workflows.workflowServiceResumeWorkflow(
                WorkflowServiceApi.APIWorkflowServiceResumeWorkflowRequest.newBuilder().namespace(namespace).name(name)
                        .body(new IoArgoprojWorkflowV1alpha1WorkflowResumeRequest().namespace(namespace).name(name)).build()));
    }

    /** Suspends a workflow ({@code argo suspend}: sets {@code spec.suspend}); returns it as the server wrote it. */
    public JsonNode suspend(String namespace, String name) {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        return call("suspend", namespace + "/" + name, () -> workflows.workflowServiceSuspendWorkflow(
                WorkflowServiceApi.APIWorkflowServiceSuspendWorkflowRequest.newBuilder().namespace(namespace).name(name)
                        .body(new IoArgoprojWorkflowV1alpha1WorkflowSuspendRequest().namespace(namespace).name(name)).build()));
    }

    private interface Call<T> {
        T run() throws ApiException;
    }

    private <T> T call(String what, String workflow, Call<T> call) {
        String target = workflow.isEmpty() ? what : what + " " + workflow;
        try {
            return call.run();
        } catch (ApiException e) {
            if (e.getCode() == 0) {
                throw new ArgoServerException("Argo Server at " + settings.url() + " (" + ArgoServerSettings.URL_SETTING + "): " + target
                        + ": no answer: " + describe(e), 0, e);
            }
            String token = e.getCode() == HttpURLConnection.HTTP_UNAUTHORIZED || e.getCode() == HttpURLConnection.HTTP_FORBIDDEN
                    ? " (check " + ArgoServerSettings.TOKEN_SETTING + ")" : "";
            throw new ArgoServerException("Argo Server at " + settings.url() + ": " + target + " answered " + e.getCode() + token + ": "
                    + argoMessage(e.getResponseBody()), e.getCode(), e);
        }
    }

    private static String describe(ApiException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }

    /** Argo's error body is grpc-gateway's {@code {"code": 5, "message": "..."}}; its message, else the body as it came. */
    private static String argoMessage(String body) {
        if (body == null || body.isBlank()) {
            return "(no body)";
        }
        try {
            JsonNode error = JSON.readTree(body);
            return error.path("message").isTextual() ? error.path("message").asText() : body.strip();
        } catch (IOException e) {
            return body.strip();
        }
    }
}
