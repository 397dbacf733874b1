package dev.muster.runtime.controller;

import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import com.google.inject.Inject;
import com.google.inject.Singleton;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's one factory of controller informers: one informer per kind and label selector however
 * many controller terms watch it, so that Volcano's job controllers and every bridge in one process list
 * and watch, say, the Queues once. A term leases an informer through its {@link TermInformers}; the
 * informer is made on the first lease, started by the first term that starts it, and stopped when the
 * last lease is given back, so it lives exactly as long as some term needs it.
 *
 * <p>An informer that has stopped on its own (its first list failed for good) is not leased again: the
 * next lease makes a new one, while the terms that held the old one give it back as usual.
 *
 * <p>The scheduler's own informers ({@code CacheInformers}) are not made here: they read every object as
 * a JSON tree through a client of their own, tuned for the cache.
 */
@Singleton
@ThreadSafe
public final class SharedInformers {
    private static final Logger log = LoggerFactory.getLogger(SharedInformers.class);

    private final KubernetesClient client;
    @GuardedBy("this")
    private final Map<WatchedKind, Leased> informers = new HashMap<>();

    @Inject
    public SharedInformers(KubernetesClient client) {
        this.client = requireNonNull(client, "client is null");
    }

    /**
     * Leases the informer on {@code watched}, made by {@code made} from the client when none runs; the
     * caller gives it back with {@link #release} once, whatever happened to it.
     */
    <T> SharedIndexInformer<T> lease(WatchedKind watched, Function<KubernetesClient, SharedIndexInformer<T>> made) {
        requireNonNull(watched, "watched is null");
        requireNonNull(made, "made is null");
        synchronized (this) {
            Leased current = informers.get(watched);
            if (current == null || current.informer().stopped().toCompletableFuture().isDone()) {
                current = new Leased(made.apply(client));
                informers.put(watched, current);
            }
            current.leases++;
            @SuppressWarnings("unchecked") // the key holds the type, so this informer was made for it
            SharedIndexInformer<T> typed = (SharedIndexInformer<T>) current.informer();
            return typed;
        }
    }

    /** Gives back a lease of {@link #lease}; the informer stops when it was the last. Never throws. */
    void release(WatchedKind watched, SharedIndexInformer<?> informer) {
        requireNonNull(watched, "watched is null");
        requireNonNull(informer, "informer is null");
        Leased released;
        synchronized (this) {
            released = informers.get(watched);
            if (released == null || released.informer() != informer) {
                // a replaced informer that stopped on its own: nothing else holds it
                stopQuietly(watched, informer);
                return;
            }
            checkState(released.leases > 0, "the informer on %s is given back more often than leased", watched);
            if (--released.leases > 0) {
                return;
            }
            informers.remove(watched);
        }
        stopQuietly(watched, informer);
    }

    /** The API server's address, as messages name it. */
    String server() {
        return client.getMasterUrl().toString();
    }

    /** How many leases the informer on {@code watched} has; 0 when none runs. */
    synchronized int leases(WatchedKind watched) {
        Leased current = informers.get(watched);
        return current == null ? 0 : current.leases;
    }

    private static void stopQuietly(WatchedKind watched, SharedIndexInformer<?> informer) {
        try {
            informer.stop();
        } catch (RuntimeException e) {
            // the others must stop all the same
            log.warn("the informer on {} did not stop cleanly: {}", watched, e.toString(), e);
        }
    }

    /** One shared informer and how many terms hold it. */
    private static final class Leased {
        private final SharedIndexInformer<?> informer;
        private int leases;

        Leased(SharedIndexInformer<?> informer) {
            this.informer = requireNonNull(informer, "informer is null");
        }

        SharedIndexInformer<?> informer() {
            return informer;
        }
    }
}
