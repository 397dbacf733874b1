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
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The informers of one controller {@link TermController.Term term}, leased from the process's
 * {@link SharedInformers}: each kind (with its label selector) once, however often the term asks for it,
 * and shared with every other term that watches the same, so a process lists a kind once. A term asks
 * for its informers and adds its handlers and indexers before {@link #start()}, which starts them in the
 * order they were first asked for, each after the one before has listed its kind (an informer another
 * term runs already has), and only then gives each the term's handlers; {@link #stop()} takes the term's
 * handlers and indexers off again and gives the informers back, in the reverse order. What a term gets
 * is a {@link LeasedInformer}: it refuses to be started or stopped by the term.
 *
 * <p>Not thread-safe: a term makes, starts and stops its informers on the runtime's leadership thread.
 */
public final class TermInformers {
    private static final int TOO_MANY_REQUESTS = 429;

    /** How long {@link #start()} waits for one informer's first list. */
    public static final Duration SYNC_TIMEOUT = Duration.ofMinutes(2);
    private static final Logger log = LoggerFactory.getLogger(TermInformers.class);

    private final SharedInformers shared;
    private final String owner;
    private final Duration syncTimeout;
    private final Map<WatchedKind, LeasedInformer<?>> informers = new LinkedHashMap<>();
    private boolean started;
    private boolean stopped;

    /**
     * @param owner who the informers are for, as messages name it, e.g. {@code kubeflow bridge}
     */
    public TermInformers(SharedInformers shared, String owner) {
        this(shared, owner, SYNC_TIMEOUT);
    }

    /** With another wait for each first list than {@link #SYNC_TIMEOUT}; for tests. */
    TermInformers(SharedInformers shared, String owner, Duration syncTimeout) {
        this.shared = requireNonNull(shared, "shared is null");
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
        WatchedKind watched = new WatchedKind(Pod.class, "", "v1", "pods", Optional.of(requireNonNull(labelKey, "labelKey is null")));
        return informer(watched, client -> runnable(client.pods().inAnyNamespace(), watched.labelKey()));
    }

    /** The informer on the Services, in every namespace, that carry the label {@code labelKey}. */
    public SharedIndexInformer<Service> services(String labelKey) {
        WatchedKind watched = new WatchedKind(Service.class, "", "v1", "services",
                Optional.of(requireNonNull(labelKey, "labelKey is null")));
        return informer(watched, client -> runnable(client.services().inAnyNamespace(), watched.labelKey()));
    }

    /** The informer on every PriorityClass ({@code scheduling.k8s.io/v1}, cluster-wide). */
    public SharedIndexInformer<PriorityClass> priorityClasses() {
        WatchedKind watched = new WatchedKind(PriorityClass.class, "scheduling.k8s.io", "v1", "priorityclasses", Optional.empty());
        return informer(watched, client -> client.scheduling().v1().priorityClasses().runnableInformer(0)
                .exceptionHandler(TermInformers::retryAfter));
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
        for (Map.Entry<WatchedKind, LeasedInformer<?>> entry : informers.entrySet()) {
            try {
                entry.getValue().shared().start().toCompletableFuture().get(syncTimeout.toMillis(), TimeUnit.MILLISECONDS);
                entry.getValue().attach();
            } catch (ExecutionException e) {
                throw new IllegalStateException(format("%s: the informer on %s could not list it: %s", owner, entry.getKey(),
                        e.getCause().getMessage()), e);
            } catch (TimeoutException e) {
                throw new IllegalStateException(format("%s: the informer on %s did not list it within %d ms", owner, entry.getKey(),
                        syncTimeout.toMillis()), e);
            }
        }
    }

    /**
     * Starts the informers as {@link #start()} does, for a term that must not fail to start: it waits for
     * each first list as long as it takes, saying every {@code warnEvery} which kind cannot be listed yet
     * and why, and a kind whose list was refused for good (not served, e.g. no JobFlow CRD; forbidden)
     * is left unwatched with a warning, its store empty. Called once, instead of {@link #start()}.
     *
     * @throws InterruptedException when the wait is interrupted
     */
    public void startWithoutDeadline(Duration warnEvery) throws InterruptedException {
        requireNonNull(warnEvery, "warnEvery is null");
        checkState(!started && !stopped, "%s: informers are started once", owner);
        started = true;
        for (Map.Entry<WatchedKind, LeasedInformer<?>> entry : informers.entrySet()) {
            CompletableFuture<Void> listed = entry.getValue().shared().start().toCompletableFuture();
            while (true) {
                try {
                    listed.get(warnEvery.toMillis(), TimeUnit.MILLISECONDS);
                    entry.getValue().attach();
                    break;
                } catch (TimeoutException e) {
                    log.warn("{} cannot list yet, retrying resource={} server={}", owner, entry.getKey(), shared.server());
                } catch (ExecutionException e) {
                    log.warn("{}: not watched resource={} error=\"{}\"", owner, entry.getKey(), e.getCause().getMessage());
                    break;
                }
            }
        }
    }

    /**
     * Takes the term's handlers and indexers off its informers and gives them back, the last asked for
     * first; an informer no other term holds stops. Idempotent, also when {@link #start()} failed or never
     * ran; never throws.
     */
    public void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        List<Map.Entry<WatchedKind, LeasedInformer<?>>> all = new ArrayList<>(informers.entrySet());
        for (int i = all.size() - 1; i >= 0; i--) {
            LeasedInformer<?> informer = all.get(i).getValue();
            informer.detach();
            shared.release(all.get(i).getKey(), informer.shared());
        }
    }

    private SharedIndexInformer<GenericKubernetesResource> resources(ResourceDefinitionContext kind, Optional<String> labelKey) {
        requireNonNull(kind, "kind is null");
        WatchedKind watched = new WatchedKind(GenericKubernetesResource.class, nullToEmpty(kind.getGroup()), kind.getVersion(),
                kind.getPlural(), labelKey);
        return informer(watched, client -> {
            MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> all =
                    client.genericKubernetesResources(kind);
            return runnable(kind.isNamespaceScoped() ? all.inAnyNamespace() : all, labelKey);
        });
    }

    /**
     * The term's view of the shared informer on {@code watched}, leased when first asked for and made by
     * {@code made} when no term holds it; {@code watched} holds the type {@code T}.
     */
    private <T> SharedIndexInformer<T> informer(WatchedKind watched, Function<KubernetesClient, SharedIndexInformer<T>> made) {
        checkState(!started && !stopped, "%s: the informer on %s is asked for after start", owner, watched);
        LeasedInformer<?> informer = informers.computeIfAbsent(watched, ignored -> new LeasedInformer<>(shared.lease(watched, made), owner));
        @SuppressWarnings("unchecked") // the key holds the type, so this informer was made for it
        LeasedInformer<T> typed = (LeasedInformer<T>) informer;
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
}
