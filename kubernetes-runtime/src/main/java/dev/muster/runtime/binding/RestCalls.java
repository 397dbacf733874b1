package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Raw REST calls through the client's HTTP stack (its authentication and TLS), for what the typed DSL
 * does not offer or hides: the {@code pods/{name}/binding} subresource, the Eviction API, JSON merge
 * patches of {@code /status}. Answers are {@link ApiResponse}s, never exceptions; a call the server
 * may retry ({@link ApiResponse.Outcome#RETRY}) is tried again with exponential backoff.
 *
 * <p>Each try asks the {@link WriteFence} first: a closed fence answers {@link ApiResponse#fenced()}
 * without sending anything, an open one bounds the try's timeout by the time it has left.
 */
@ThreadSafe
final class RestCalls {
    static final String JSON = "application/json";
    static final String MERGE_PATCH = "application/merge-patch+json";

    private final KubernetesClient client;
    private final RetryPolicy retry;
    private final WriteFence fence;
    private final Optional<ApiServerReachability> reachability;

    RestCalls(KubernetesClient client, RetryPolicy retry) {
        this(client, retry, WriteFence.NONE, Optional.empty());
    }

    RestCalls(KubernetesClient client, RetryPolicy retry, WriteFence fence, Optional<ApiServerReachability> reachability) {
        this.client = requireNonNull(client, "client is null");
        this.retry = requireNonNull(retry, "retry is null");
        this.fence = requireNonNull(fence, "fence is null");
        this.reachability = requireNonNull(reachability, "reachability is null");
    }

    CompletableFuture<ApiResponse> post(String path, String json) {
        return withRetries(() -> request(path).post(JSON, json), 1);
    }

    CompletableFuture<ApiResponse> mergePatch(String path, String json) {
        return withRetries(() -> request(path).patch(MERGE_PATCH, json), 1);
    }

    CompletableFuture<ApiResponse> get(String path) {
        return withRetries(() -> request(path), 1);
    }

    CompletableFuture<ApiResponse> delete(String path) {
        return withRetries(() -> request(path).delete(JSON, "{}"), 1);
    }

    private HttpRequest.Builder request(String path) {
        String base = client.getMasterUrl().toString().replaceAll("/+$", "");
        return client.getHttpClient().newHttpRequestBuilder().uri(base + path);
    }

    private CompletableFuture<ApiResponse> withRetries(Supplier<HttpRequest.Builder> request, int attempt) {
        Optional<Duration> left = fence.remaining();
        if (left.isPresent() && (left.get().isNegative() || left.get().isZero())) {
            return CompletableFuture.completedFuture(ApiResponse.fenced());
        }
        Duration timeout = left.filter(time -> time.compareTo(retry.requestTimeout()) < 0).orElse(retry.requestTimeout());
        HttpRequest sent = request.get().timeout(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS).build();
        return send(sent).thenCompose(response -> {
            reachability.ifPresent(server -> {
                if (ApiServerReachability.unavailable(response.code())) {
                    server.unanswered(sent.method() + " " + sent.uri().getPath(), response.describe());
                } else {
                    server.answered();
                }
            });
            if (response.outcome() != ApiResponse.Outcome.RETRY || attempt >= retry.attempts()) {
                return CompletableFuture.completedFuture(response);
            }
            Duration pause = retry.backoff(attempt);
            return CompletableFuture.supplyAsync(() -> null, CompletableFuture.delayedExecutor(pause.toMillis(), TimeUnit.MILLISECONDS))
                    .thenCompose(ignored -> withRetries(request, attempt + 1));
        });
    }

    private CompletableFuture<ApiResponse> send(HttpRequest request) {
        CompletableFuture<HttpResponse<String>> sent;
        try {
            sent = client.getHttpClient().sendAsync(request, String.class);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(ApiResponse.noAnswer(e));
        }
        return sent.handle((response, failure) -> failure != null
                ? ApiResponse.noAnswer(failure)
                : new ApiResponse(response.code(), response.body() == null ? "" : response.body()));
    }
}
