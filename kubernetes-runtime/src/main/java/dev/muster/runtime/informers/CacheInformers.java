package dev.muster.runtime.informers;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.base.Throwables;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.cache.ResourceKind;
import dev.muster.runtime.binding.ApiServerReachability;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a {@link ClusterCache} from one fabric8 informer per kind the engine reads: Nodes, Pods,
 * PriorityClasses, the three PodGroup APIs, Queues and HyperNodes, each listed and watched as a
 * {@link GenericKubernetesResource} and stored as its JSON tree, the form the manifest converters read.
 *
 * <p>{@link #start} returns once every informer's handler has put its first list into the cache,
 * not merely once fabric8 has listed it ({@link InitialDelivery} says why), and marks each kind synced
 * in the cache then, so that the first cycle sees every PodGroup with all of its pods.
 *
 * <p>A kind the API server does not serve (404, e.g. no scheduler-plugins CRD, or Kubernetes'
 * {@code scheduling.k8s.io/v1alpha2} PodGroups before 1.36 or without their feature gate) is left
 * unwatched with a warning. So is that Workload API PodGroup when Muster may not list it (403): a
 * ClusterRole from before Muster read it must not keep the scheduler from starting (kube-apiserver
 * authorizes before it looks the resource up, so the 403 comes whether or not the API is served).
 * Any other failure is retried by the informer, before and after the first list: an API server that
 * is down at start or goes away later is waited for, never fatal.
 */
@ThreadSafe
public final class CacheInformers {
    private static final Logger log = LoggerFactory.getLogger(CacheInformers.class);
    private static final int NOT_FOUND = 404;
    private static final int FORBIDDEN = 403;

    private final KubernetesClient client;
    private final ClusterCache cache;
    /** Each kind's last list or watch failure, so a kind still listing is not blamed for another's. */
    private final Map<ResourceKind, Throwable> lastFailure = new ConcurrentHashMap<>();
    /** Whether the first failure to read the API server while starting has been reported. */
    private final AtomicBoolean failureReported = new AtomicBoolean();
    private volatile boolean starting;
    /** Shared with the writers: an outage met once started is logged there, once, whoever meets it first. */
    private final ApiServerReachability reachability;

    @GuardedBy("this")
    private final Map<ResourceKind, SharedIndexInformer<GenericKubernetesResource>> informers =
            new EnumMap<>(ResourceKind.class);
    /** The informers' own client while they run: {@link UntypedClient}. */
    @GuardedBy("this")
    private KubernetesClient watching;

    public CacheInformers(KubernetesClient client, ClusterCache cache) {
        this(client, cache, new ApiServerReachability(client.getMasterUrl().toString(), java.time.Clock.systemUTC()));
    }

    public CacheInformers(KubernetesClient client, ClusterCache cache, ApiServerReachability reachability) {
        this.client = requireNonNull(client, "client is null");
        this.cache = requireNonNull(cache, "cache is null");
        this.reachability = requireNonNull(reachability, "reachability is null");
    }

    /**
     * Starts every informer and waits until each has listed its kind once and its handler has put the
     * list into the cache, logging every {@code warnEvery} why the API server cannot be read yet.
     *
     * @throws InterruptedException when interrupted while waiting; the informers keep running until {@link #stop()}
     */
    public void start(Duration warnEvery) throws InterruptedException {
        requireNonNull(warnEvery, "warnEvery is null");
        starting = true;
        Map<ResourceKind, CompletableFuture<Void>> started = new EnumMap<>(ResourceKind.class);
        Map<ResourceKind, InitialDelivery> deliveries = new EnumMap<>(ResourceKind.class);
        synchronized (this) {
            if (watching == null) {
                watching = UntypedClient.of(client);
            }
            for (ResourceKind kind : ResourceKind.values()) {
                SharedIndexInformer<GenericKubernetesResource> informer = source(kind).runnableInformer(0);
                InitialDelivery delivery = new InitialDelivery();
                deliveries.put(kind, delivery);
                informer.addEventHandler(new Handler(kind, delivery));
                informer.exceptionHandler((isStarted, failure) -> retry(kind, failure));
                informers.put(kind, informer);
                started.put(kind, informer.start().toCompletableFuture());
            }
        }
        for (Map.Entry<ResourceKind, CompletableFuture<Void>> entry : started.entrySet()) {
            ResourceKind kind = entry.getKey();
            if (awaitFirstList(kind, entry.getValue(), warnEvery)) {
                List<String> listed;
                synchronized (this) {
                    listed = informers.get(kind).getStore().listKeys();
                }
                deliveries.get(kind).await(listed, warnEvery, left -> log.info(
                        "waiting for the first list to reach the cache resource={} left={} of {}", kind.plural(), left, listed.size()));
            }
            cache.markSynced(kind);
        }
        starting = false;
        log.info("informers synced server={}", client.getMasterUrl());
    }

    public synchronized void stop() {
        informers.values().forEach(SharedIndexInformer::stop);
        informers.clear();
        if (watching != null) {
            watching.close();
            watching = null;
        }
    }

    /** Whether the kind is served and listed; one that is not is left unwatched. */
    private boolean awaitFirstList(ResourceKind kind, CompletableFuture<Void> started, Duration warnEvery)
            throws InterruptedException {
        while (true) {
            try {
                started.get(warnEvery.toMillis(), TimeUnit.MILLISECONDS);
                return true;
            } catch (TimeoutException e) {
                Throwable failure = lastFailure.get(kind);
                log.warn("cannot list yet, retrying resource={} server={} error=\"{}\"", kind.plural(), client.getMasterUrl(),
                        failure == null ? "no failure, the list is still on its way" : describe(failure));
            } catch (ExecutionException e) {
                log.warn("not served, not watched apiVersion={} resource={} error=\"{}\"", kind.apiVersion(), kind.plural(),
                        e.getCause().getMessage());
                synchronized (this) {
                    informers.remove(kind).stop();
                }
                return false;
            }
        }
    }

    /** Retries everything but a kind that is not served. */
    private boolean retry(ResourceKind kind, Throwable failure) {
        lastFailure.put(kind, failure);
        // the informer hands the failure over wrapped (a CompletionException around the client's), as it
        // does against a real kube-apiserver: unwrapped, a kind not served was retried forever, and start never returned
        int code = clientException(failure).map(KubernetesClientException::getCode).orElse(0);
        if (code == NOT_FOUND || (code == FORBIDDEN && kind == ResourceKind.WORKLOAD_POD_GROUP)) {
            return false;
        }
        if (starting && failureReported.compareAndSet(false, true)) {
            // at once, not only after the first warnEvery: an unreachable server is the usual mistake at start
            log.warn("cannot read the API server, retrying until it answers server={} resource={} error=\"{}\"", client.getMasterUrl(),
                    kind.plural(), describe(failure));
            return true;
        }
        if (!starting && unanswered(failure)) {
            // once per outage, not once per kind and retry: fabric8's own warning of each retry is silenced in the CLI's logging
            reachability.unanswered("list and watch " + kind.plural(), describe(failure));
            return true;
        }
        log.debug("informer failed, retrying resource={}", kind.plural(), failure);
        return true;
    }

    /** Called for every object an informer delivers: after an outage, the first says the API server answers again. */
    private void delivering() {
        reachability.answered();
    }

    /** No answer at all, or one saying the server cannot serve now; a 403 or 404 is an answer. */
    private static boolean unanswered(Throwable failure) {
        return clientException(failure).map(exception -> exception.getCode() == 0 || exception.getCode() >= 500).orElse(true);
    }

    private static java.util.Optional<KubernetesClientException> clientException(Throwable failure) {
        return Throwables.getCausalChain(failure).stream()
                .filter(KubernetesClientException.class::isInstance)
                .map(KubernetesClientException.class::cast)
                .findFirst();
    }

    /** The failure and, if another, its root cause: fabric8's message names the request, the cause why it failed. */
    private static String describe(Throwable failure) {
        Throwable cause = Throwables.getRootCause(failure);
        return cause == failure ? String.valueOf(failure.getMessage()) : failure.getMessage() + ": " + cause;
    }

    @GuardedBy("this")
    private Informable<GenericKubernetesResource> source(ResourceKind kind) {
        MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> resources =
                watching.genericKubernetesResources(KubernetesResources.context(kind));
        return kind.namespaced() ? resources.inAnyNamespace() : resources;
    }

    /** Converts on the informer's thread, so the cache stores trees and the cycle never sees fabric8 types. */
    private final class Handler implements ResourceEventHandler<GenericKubernetesResource> {
        private final ResourceKind kind;
        private final InitialDelivery delivery;

        Handler(ResourceKind kind, InitialDelivery delivery) {
            this.kind = kind;
            this.delivery = delivery;
        }

        @Override
        public void onAdd(GenericKubernetesResource object) {
            delivering();
            cache.put(kind, tree(object));
            delivery.delivered(Cache.metaNamespaceKeyFunc(object));
        }

        @Override
        public void onUpdate(GenericKubernetesResource previous, GenericKubernetesResource object) {
            delivering();
            cache.put(kind, tree(object));
            delivery.delivered(Cache.metaNamespaceKeyFunc(object));
        }

        @Override
        public void onDelete(GenericKubernetesResource object, boolean finalStateUnknown) {
            delivering();
            cache.remove(kind, tree(object));
            delivery.delivered(Cache.metaNamespaceKeyFunc(object));
        }

        private ObjectNode tree(GenericKubernetesResource object) {
            ObjectNode tree = client.getKubernetesSerialization().convertValue(object, ObjectNode.class);
            // list items may come without their type; the converters read it
            tree.put("apiVersion", kind.apiVersion());
            tree.put("kind", kind.kind());
            return tree;
        }
    }
}
