package dev.muster.runtime.binding;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.muster.engine.cache.ClusterCache;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
     * @throws InterruptedException when interrupted while waiting; binds already sent still end
     */
    public ImmutableList<BindResult> bind(List<BindRequest> requests) throws InterruptedException {
        Stream stream = open();
        requests.forEach(stream::send);
        return stream.finish();
    }

    /** A stream of binds for one cycle: each is sent as it comes, at most {@code parallelism} in flight. */
    public Stream open() {
        return new Stream();
    }

    /**
     * Binds sent in the order given, as soon as a slot is free, so the scheduling thread hands over a gang's
     * binds without waiting for them. {@link #send} never blocks; a completion starts the next waiting bind
     * on the client's thread.
     */
    @ThreadSafe
    public final class Stream {
        @GuardedBy("this")
        private final Deque<BindRequest> waiting = new ArrayDeque<>();
        @GuardedBy("this")
        private final List<CompletableFuture<BindResult>> sent = new ArrayList<>();
        @GuardedBy("this")
        private int inFlight;
        /** One thread at a time starts requests, so a request that completes at once does not recurse. */
        @GuardedBy("this")
        private boolean starting;

        private Stream() {}

        /** Queues a bind and sends it once fewer than {@code parallelism} are in flight. */
        public void send(BindRequest request) {
            requireNonNull(request, "request is null");
            synchronized (this) {
                waiting.add(request);
            }
            startWaiting();
        }

        /**
         * Waits until every bind given has been sent and has ended.
         *
         * @return the results in the order the binds were given
         * @throws InterruptedException when interrupted; binds already sent still end
         */
        public ImmutableList<BindResult> finish() throws InterruptedException {
            List<CompletableFuture<BindResult>> results;
            synchronized (this) {
                while (!waiting.isEmpty() || inFlight > 0) {
                    wait();
                }
                results = List.copyOf(sent);
            }
            return results.stream().map(CompletableFuture::join).collect(ImmutableList.toImmutableList());
        }

        private void startWaiting() {
            synchronized (this) {
                if (starting) {
                    return;
                }
                starting = true;
            }
            while (true) {
                BindRequest next;
                // its place in the results is taken before it is sent, so finish() never misses a bind that ended at once
                CompletableFuture<BindResult> result = new CompletableFuture<>();
                synchronized (this) {
                    if (inFlight >= parallelism || waiting.isEmpty()) {
                        starting = false;
                        notifyAll();
                        return;
                    }
                    next = waiting.poll();
                    inFlight++;
                    sent.add(result);
                }
                try {
                    cache.assumeBound(next.task(), next.node());
                    rest.post(path(next), body(next).toString())
                            .thenApply(response -> conclude(next, response))
                            .whenComplete((bound, failure) -> {
                                if (failure == null) {
                                    result.complete(bound);
                                } else {
                                    result.completeExceptionally(failure);
                                }
                                ended();
                            });
                } catch (RuntimeException e) {
                    result.completeExceptionally(e);
                    ended();
                }
            }
        }

        private void ended() {
            synchronized (this) {
                inFlight--;
                notifyAll();
            }
            startWaiting();
        }
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
