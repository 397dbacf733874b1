package dev.muster.runtime.controller;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static com.google.common.base.Strings.nullToEmpty;
import static java.lang.String.format;
import static java.util.Objects.requireNonNull;

import com.google.common.base.Throwables;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The informers of one controller {@link TermController.Term term}, made from one client: each kind (with
 * its label selector) once, however often the term asks for it, so a term lists a kind once. A term asks
 * for its informers and adds its handlers and indexers before {@link #start()}, which starts them in the
 * order they were first asked for, each after the one before has listed its kind; {@link #stop()} stops
 * them in the reverse order.
 *
 * <p>Not thread-safe: a term makes, starts and stops its informers on the runtime's leadership thread.
 */
public final class TermInformers {
    private static final int TOO_MANY_REQUESTS = 429;

    /** How long {@link #start()} waits for one informer's first list. */
    public static final Duration SYNC_TIMEOUT = Duration.ofMinutes(2);
    private static final Logger log = LoggerFactory.getLogger(TermInformers.class);

    private final KubernetesClient client;
    private final String owner;
    private final Duration syncTimeout;
    private final Map<Watched, SharedIndexInformer<?>> informers = new LinkedHashMap<>();
    private boolean started;
    private boolean stopped;

    /**
     * @param owner who the informers are for, as messages name it, e.g. {@code kubeflow bridge}
     */
    public TermInformers(KubernetesClient client, String owner) {
        this(client, owner, SYNC_TIMEOUT);
    }

    /** With another wait for each first list than {@link #SYNC_TIMEOUT}; for tests. */
    TermInformers(KubernetesClient client, String owner, Duration syncTimeout) {
        this.client = requireNonNull(client, "client is null");
        this.owner = requireNonNull(owner, "owner is null");
        this.syncTimeout = requireNonNull(syncTimeout, "syncTimeout is null");
        checkArgument(!syncTimeout.isNegative() && !syncTimeout.isZero(), "syncTimeout must be positive: %s", syncTimeout);
    }

    /** The informer on every object of the kind: in every namespace when the kind is namespaced, cluster-wide otherwise. */
    public SharedIndexInformer<GenericKubernetesResource> resources(ResourceDefinitionContext kind) {
        return resources(kind, Optional.empty());
    }

    /** As {@link #resources(ResourceDefinitionContext)}, on the objects that carry the label {@code labelKey}, whatever its value. */
    public SharedIndexInformer<GenericKubernetesResource> resources(ResourceDefinitionContext kind, String labelKey) {
        return resources(kind, Optional.of(requireNonNull(labelKey, "labelKey is null")));
    }

    /** The informer on the pods, in every namespace, that carry the label {@code labelKey}. */
    public SharedIndexInformer<Pod> pods(String labelKey) {
        Watched watched = new Watched(Pod.class, "", "v1", "pods", Optional.of(requireNonNull(labelKey, "labelKey is null")));
        return informer(watched, () -> runnable(client.pods().inAnyNamespace(), watched.labelKey()));
    }

    /** The informer on the Services, in every namespace, that carry the label {@code labelKey}. */
    public SharedIndexInformer<Service> services(String labelKey) {
        Watched watched = new Watched(Service.class, "", "v1", "services", Optional.of(requireNonNull(labelKey, "labelKey is null")));
        return informer(watched, () -> runnable(client.services().inAnyNamespace(), watched.labelKey()));
    }

    /**
     * Starts the informers in the order they were first asked for, each once the one before has listed
     * its kind, and returns when the last has. Called once.
     *
     * @throws IllegalStateException naming the owner and the kind when an informer fails its first list
     *     or does not finish it within the sync timeout; the caller then {@link #stop() stops} them all
     * @throws InterruptedException when the wait is interrupted
     */
    public void start() throws InterruptedException {
        checkState(!started && !stopped, "%s: informers are started once", owner);
        started = true;
        for (Map.Entry<Watched, SharedIndexInformer<?>> entry : informers.entrySet()) {
            try {
                entry.getValue().start().toCompletableFuture().get(syncTimeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                throw new IllegalStateException(format("%s: the informer on %s could not list it: %s", owner, entry.getKey(),
                        e.getCause().getMessage()), e);
            } catch (TimeoutException e) {
                throw new IllegalStateException(format("%s: the informer on %s did not list it within %d ms", owner, entry.getKey(),
                        syncTimeout.toMillis()), e);
            }
        }
    }

    /** Stops every informer, the last asked for first. Idempotent, also when {@link #start()} failed or never ran; never throws. */
    public void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        List<Map.Entry<Watched, SharedIndexInformer<?>>> all = new ArrayList<>(informers.entrySet());
        for (int i = all.size() - 1; i >= 0; i--) {
            try {
                all.get(i).getValue().stop();
            } catch (RuntimeException e) {
                // the others must stop all the same
                log.warn("{}: the informer on {} did not stop cleanly: {}", owner, all.get(i).getKey(), e.toString(), e);
            }
        }
    }

    private SharedIndexInformer<GenericKubernetesResource> resources(ResourceDefinitionContext kind, Optional<String> labelKey) {
        requireNonNull(kind, "kind is null");
        Watched watched = new Watched(GenericKubernetesResource.class, nullToEmpty(kind.getGroup()), kind.getVersion(), kind.getPlural(),
                labelKey);
        return informer(watched, () -> {
            MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> all =
                    client.genericKubernetesResources(kind);
            return runnable(kind.isNamespaceScoped() ? all.inAnyNamespace() : all, labelKey);
        });
    }

    /** The informer on {@code watched}, made by {@code made} when first asked for; {@code watched} holds the type {@code T}. */
    private <T> SharedIndexInformer<T> informer(Watched watched, Supplier<SharedIndexInformer<T>> made) {
        checkState(!started && !stopped, "%s: the informer on %s is asked for after start", owner, watched);
        SharedIndexInformer<?> informer = informers.computeIfAbsent(watched, ignored -> made.get());
        @SuppressWarnings("unchecked") // the key holds the type, so this informer was made for it
        SharedIndexInformer<T> typed = (SharedIndexInformer<T>) informer;
        return typed;
    }

    private static <T> SharedIndexInformer<T> runnable(FilterWatchListDeletable<T, ?, ?> kind, Optional<String> labelKey) {
        Informable<T> selected = labelKey.isPresent() ? kind.withLabel(labelKey.get()) : kind;
        return selected.runnableInformer(0).exceptionHandler(TermInformers::retryAfter);
    }

    /**
     * Whether an informer lists again after {@code failure}, after fabric8's backoff. Once it has listed,
     * as fabric8 decides by default (again unless the watch itself failed for good). Before, fabric8 gives
     * up at the first failure; here the first list is tried again while the API server may answer next
     * time (429, as a CRD's storage answers for seconds after the CRD is made; any 5xx; a request that got
     * no answer), and given up when it answered that it will not (404 for a kind not served, 403, a body
     * that cannot be read), which {@link #start()} then reports naming the kind. {@link #SYNC_TIMEOUT}
     * bounds the retries of a first list.
     */
    static boolean retryAfter(boolean started, Throwable failure) {
        if (started) {
            return !(failure instanceof WatcherException);
        }
        if (ExceptionHandler.isDeserializationException(failure)) {
            return false;
        }
        // the list's failure may come wrapped (a CompletionException around the client's)
        Optional<Integer> code = Throwables.getCausalChain(failure).stream()
                .filter(KubernetesClientException.class::isInstance).map(cause -> ((KubernetesClientException) cause).getCode())
                .filter(answered -> answered > 0).findFirst();
        return code.map(answered -> answered == TOO_MANY_REQUESTS || answered >= HttpURLConnection.HTTP_INTERNAL_ERROR).orElse(true);
    }

    /** A kind as a term watches it: its Java type, its API path and the label key its objects carry, if any. */
    private record Watched(Class<?> type, String group, String version, String plural, Optional<String> labelKey) {
        Watched {
            requireNonNull(type, "type is null");
            requireNonNull(group, "group is null");
            requireNonNull(version, "version is null");
            requireNonNull(plural, "plural is null");
            requireNonNull(labelKey, "labelKey is null");
        }

        @Override
        public String toString() {
            String path = (group.isEmpty() ? "" : group + "/") + version + "/" + plural;
            return labelKey.map(key -> path + " labelled " + key).orElse(path);
        }
    }
}
