package dev.muster.runtime.binding;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.engine.cache.ClusterCache;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds pods to nodes through the Binding subresource ({@code POST pods/{name}/binding}), at most
 * {@code parallelism} requests at a time, each retried with backoff on 5xx and timeouts.
 *
 * <p>Each pod is marked in flight in the {@link ClusterCache} before its request is sent, so later
 * snapshots read it as Bound until the informer shows it on its node; a bind that fails is forgotten
 * there, so the next cycle sees the pod Pending again and decides anew.
 *
 * <p><b>A gang whose binds partly fail is completed, not rolled back.</b> The session hands a gang
 * to the binder only when it is ready, so all its binds are sent together. If some fail, the pods
 * already bound stay where they are (as in Volcano: a bind is not undone, and an eviction would kill
 * pods that may already be starting). The next cycle reads them as Bound; the gang plugin counts them
 * towards {@code minMember}, their resources stay charged to the job's queue, and allocate places only
 * the missing members, on whatever fits then. A 409 means the pod is bound already (by an earlier
 * try whose answer was lost, or a restarted scheduler) and counts as done once the informer shows it;
 * a 404 means the pod was deleted, and its gang waits, with its reason, for its controller to replace
 * it. So Muster never leaves a gang half bound by choice: a partial gang is the one whose missing
 * members it is still trying to place, first in line for the resources it already holds.
 */
@ThreadSafe
public final class Binder {
    private static final Logger log = LoggerFactory.getLogger(Binder.class);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final RestCalls rest;
    private final ClusterCache cache;
    private final int parallelism;

    public Binder(KubernetesClient client, ClusterCache cache, RetryPolicy retry, int parallelism) {
        this(new RestCalls(requireNonNull(client, "client is null"), requireNonNull(retry, "retry is null")), cache, parallelism);
    }

    Binder(RestCalls rest, ClusterCache cache, int parallelism) {
        checkArgument(parallelism >= 1, "parallelism must be at least 1: %s", parallelism);
        this.rest = requireNonNull(rest, "rest is null");
        this.cache = requireNonNull(cache, "cache is null");
        this.parallelism = parallelism;
    }

    /**
     * Binds every pod and waits until each bind has ended.
     *
     * @throws InterruptedException when interrupted while waiting for a free slot; binds already sent still end
     */
    public ImmutableList<BindResult> bind(List<BindRequest> requests) throws InterruptedException {
        Semaphore slots = new Semaphore(parallelism);
        List<CompletableFuture<BindResult>> pending = new ArrayList<>();
        for (BindRequest request : requests) {
            slots.acquire();
            cache.assumeBound(request.task(), request.node());
            CompletableFuture<BindResult> result = rest.post(path(request), body(request).toString())
                    .thenApply(response -> conclude(request, response))
                    .whenComplete((ignored, failure) -> slots.release());
            pending.add(result);
        }
        ImmutableList.Builder<BindResult> results = ImmutableList.builder();
        for (CompletableFuture<BindResult> result : pending) {
            results.add(result.join());
        }
        return results.build();
    }

    private BindResult conclude(BindRequest request, ApiResponse response) {
        BindResult.Status status = switch (response.outcome()) {
            case DONE -> BindResult.Status.BOUND;
            case CONFLICT -> BindResult.Status.CONFLICT;
            case GONE -> BindResult.Status.GONE;
            case RETRY, REJECTED, FENCED -> BindResult.Status.FAILED;
        };
        if (status == BindResult.Status.BOUND) {
            return new BindResult(request.task(), request.node(), status, "");
        }
        cache.forgetBind(request.task());
        if (status == BindResult.Status.FAILED && response.outcome() != ApiResponse.Outcome.FENCED) {
            log.warn("bind failed pod={} node={} detail=\"{}\"", request.task(), request.node(), response.describe());
        } else {
            log.debug("bind not applied pod={} node={} detail=\"{}\"", request.task(), request.node(), response.describe());
        }
        return new BindResult(request.task(), request.node(), status, response.describe());
    }

    private static String path(BindRequest request) {
        return "/api/v1/namespaces/" + request.task().namespace() + "/pods/" + request.task().name() + "/binding";
    }

    private static ObjectNode body(BindRequest request) {
        ObjectNode binding = JSON.objectNode().put("apiVersion", "v1").put("kind", "Binding");
        ObjectNode metadata = binding.putObject("metadata")
                .put("name", request.task().name())
                .put("namespace", request.task().namespace());
        if (!request.uid().isEmpty()) {
            metadata.put("uid", request.uid());
        }
        binding.putObject("target").put("apiVersion", "v1").put("kind", "Node").put("name", request.node().value());
        return binding;
    }
}
