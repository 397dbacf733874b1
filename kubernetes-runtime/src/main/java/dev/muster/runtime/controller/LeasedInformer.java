package dev.muster.runtime.controller;

import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.informers.cache.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One term's view of a {@link SharedInformers shared} informer, which is what {@link TermInformers} hands
 * a term: the term uses it as its own informer, but what it adds comes off again when the term ends.
 *
 * <ul>
 *   <li>Handlers added before the term starts reach the shared informer when {@link TermInformers#start()}
 *       comes to this informer, so a term sees no event before that, also when another term has this
 *       informer running already (fabric8 then gives a new handler every stored object as an add, as a
 *       first list would). {@link #detach()} removes them.
 *   <li>Indexers are stored under the term's owner, so two terms may each have an index {@code job}
 *       with different functions; {@link #getIndexer()} reads the term's own, and the informer's own
 *       (fabric8's {@code namespace} index) by their names.
 *   <li>Starting, stopping and configuring the shared informer belong to {@link TermInformers} and
 *       {@link SharedInformers}: those calls are refused.
 * </ul>
 *
 * <p>Thread-safe as far as the shared informer is; handlers are added and removed under this object's
 * lock.
 */
final class LeasedInformer<T> implements SharedIndexInformer<T> {
    private static final Logger log = LoggerFactory.getLogger(LeasedInformer.class);

    private final SharedIndexInformer<T> shared;
    private final String owner;
    private final TermIndexer indexer;
    /** Each handler added by the term, with its resync period (0: none). */
    private final Map<ResourceEventHandler<? super T>, Long> handlers = new LinkedHashMap<>();
    private final Set<String> indexNames = new LinkedHashSet<>();
    private boolean attached;
    private boolean detached;

    LeasedInformer(SharedIndexInformer<T> shared, String owner) {
        this.shared = requireNonNull(shared, "shared is null");
        this.owner = requireNonNull(owner, "owner is null");
        this.indexer = new TermIndexer();
    }

    /** The shared informer itself, for {@link TermInformers} to start and give back. */
    SharedIndexInformer<T> shared() {
        return shared;
    }

    /** Gives the shared informer the handlers added so far; later ones go to it at once. */
    synchronized void attach() {
        checkState(!detached, "%s: an informer is attached after its term ended", owner);
        attached = true;
        handlers.forEach(this::addToShared);
    }

    /** Takes this term's handlers and indexers off the shared informer. Never throws. */
    synchronized void detach() {
        if (detached) {
            return;
        }
        detached = true;
        try {
            if (attached) {
                handlers.keySet().forEach(shared::removeEventHandler);
            }
            indexNames.forEach(name -> shared.removeIndexer(stored(name)));
        } catch (RuntimeException e) {
            // the term is ending: what is left behind only costs work until the informer stops
            log.warn("{}: could not take its handlers and indexers off a shared informer: {}", owner, e.toString(), e);
        }
        handlers.clear();
        indexNames.clear();
    }

    @Override
    public synchronized SharedIndexInformer<T> addIndexers(Map<String, Function<T, List<String>>> indexers) {
        checkState(!detached, "%s: an indexer is added after its term ended", owner);
        ImmutableMap.Builder<String, Function<T, List<String>>> stored = ImmutableMap.builder();
        indexers.forEach((name, function) -> stored.put(stored(name), function));
        shared.addIndexers(stored.buildOrThrow());
        indexNames.addAll(indexers.keySet());
        return this;
    }

    @Override
    public synchronized SharedIndexInformer<T> removeIndexer(String name) {
        if (indexNames.remove(name)) {
            shared.removeIndexer(stored(name));
        }
        return this;
    }

    @Override
    public Indexer<T> getIndexer() {
        return indexer;
    }

    @Override
    public SharedIndexInformer<T> addEventHandler(ResourceEventHandler<? super T> handler) {
        return addEventHandlerWithResyncPeriod(handler, 0);
    }

    @Override
    public synchronized SharedIndexInformer<T> addEventHandlerWithResyncPeriod(ResourceEventHandler<? super T> handler, long resyncPeriod) {
        requireNonNull(handler, "handler is null");
        checkState(!detached, "%s: a handler is added after its term ended", owner);
        handlers.put(handler, resyncPeriod);
        if (attached) {
            addToShared(handler, resyncPeriod);
        }
        return this;
    }

    @Override
    public synchronized SharedIndexInformer<T> removeEventHandler(ResourceEventHandler<? super T> handler) {
        if (handlers.remove(handler) != null && attached) {
            shared.removeEventHandler(handler);
        }
        return this;
    }

    @Override
    public Store<T> getStore() {
        return indexer;
    }

    @Override
    public boolean hasSynced() {
        return shared.hasSynced();
    }

    @Override
    public String lastSyncResourceVersion() {
        return shared.lastSyncResourceVersion();
    }

    @Override
    public boolean isRunning() {
        return shared.isRunning();
    }

    @Override
    public Class<T> getApiTypeClass() {
        return shared.getApiTypeClass();
    }

    @Override
    public boolean isWatching() {
        return shared.isWatching();
    }

    @Override
    public CompletionStage<Void> stopped() {
        return shared.stopped();
    }

    @Override
    public CompletionStage<Void> start() {
        throw refused("start");
    }

    @Override
    public SharedIndexInformer<T> run() {
        throw refused("run");
    }

    @Override
    public void stop() {
        throw refused("stop");
    }

    @Override
    public SharedIndexInformer<T> initialState(Stream<T> items) {
        throw refused("initialState");
    }

    @Override
    public SharedIndexInformer<T> itemStore(ItemStore<T> itemStore) {
        throw refused("itemStore");
    }

    @Override
    public SharedIndexInformer<T> exceptionHandler(ExceptionHandler handler) {
        throw refused("exceptionHandler");
    }

    private void addToShared(ResourceEventHandler<? super T> handler, long resyncPeriod) {
        if (resyncPeriod > 0) {
            shared.addEventHandlerWithResyncPeriod(handler, resyncPeriod);
        } else {
            shared.addEventHandler(handler);
        }
    }

    /** The name under which the term's index {@code name} is stored in the shared informer. */
    private String stored(String name) {
        return owner + ":" + name;
    }

    /** The stored name of the index a term reads as {@code name}: its own, else the informer's own (e.g. {@code namespace}). */
    private synchronized String read(String name) {
        return indexNames.contains(name) ? stored(name) : name;
    }

    private UnsupportedOperationException refused(String call) {
        return new UnsupportedOperationException(owner + ": " + call + " on a shared informer; TermInformers starts and stops it");
    }

    /** The shared informer's indexer, with this term's index names. */
    private final class TermIndexer implements Indexer<T> {
        @Override
        public List<T> index(String indexName, T object) {
            return shared.getIndexer().index(read(indexName), object);
        }

        @Override
        public List<String> indexKeys(String indexName, String indexedValue) {
            return shared.getIndexer().indexKeys(read(indexName), indexedValue);
        }

        @Override
        public List<T> byIndex(String indexName, String indexedValue) {
            return shared.getIndexer().byIndex(read(indexName), indexedValue);
        }

        @Override
        public Map<String, Function<T, List<String>>> getIndexers() {
            Map<String, Function<T, List<String>>> all = shared.getIndexer().getIndexers();
            Map<String, Function<T, List<String>>> own = new LinkedHashMap<>();
            synchronized (LeasedInformer.this) {
                for (String name : new ArrayList<>(indexNames)) {
                    Function<T, List<String>> function = all.get(stored(name));
                    if (function != null) {
                        own.put(name, function);
                    }
                }
            }
            return own;
        }

        @Override
        public void addIndexers(Map<String, Function<T, List<String>>> indexers) {
            LeasedInformer.this.addIndexers(indexers);
        }

        @Override
        public void removeIndexer(String name) {
            LeasedInformer.this.removeIndexer(name);
        }

        @Override
        public List<T> list() {
            return shared.getIndexer().list();
        }

        @Override
        public List<String> listKeys() {
            return shared.getIndexer().listKeys();
        }

        @Override
        public T get(T object) {
            return shared.getIndexer().get(object);
        }

        @Override
        public T getByKey(String key) {
            return shared.getIndexer().getByKey(key);
        }

        @Override
        public String getKey(T object) {
            return shared.getIndexer().getKey(object);
        }
    }
}
