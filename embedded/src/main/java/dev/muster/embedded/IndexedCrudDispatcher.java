package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The CRUD mock with an index from an object's identity (API, version, plural, namespace, name) to its
 * key in the store, watches that send the stored JSON as it is, and a write that works on one parsed
 * tree. The mock finds one object by matching every stored key against the query, so a GET, PUT, PATCH
 * or create cost time in proportion to everything stored; with the index, finding one object costs a
 * hash lookup. The mock's watch parsed and printed each object once per event and per watcher, and its
 * PUT parsed the object four times; {@link WatchStream} and {@link #replace} do neither. Lists and
 * anything the index misses take the mock's way. A second index, {@link #owners()}, maps owner uids
 * to the objects that name them.
 *
 * <p>Every write holds this dispatcher's monitor (the mock's own write lock is private), so a watch
 * that opens sees the store between two writes: each change once, none lost.
 */
class IndexedCrudDispatcher extends KubernetesCrudDispatcher {
    /** The mock registers a CRD's kind when the CRD is stored: such writes go through its own processEvent. */
    private static final String CRDS = "/apis/apiextensions.k8s.io/";
    private static final String METADATA = "metadata";
    private static final String STATUS = "status";

    private static final String OWNER_REFERENCES = "\"ownerReferences\"";
    /** How the mock knows a watch ({@link ApiHttpServer} writes any true value so). */
    private static final String WATCH = "watch=true";

    private final Map<String, AttributeSet> index = new ConcurrentHashMap<>();
    private final OwnerIndex owners = new OwnerIndex();
    private final WatchCache watches;
    /** The undoing of each change of the dry run under way, the latest first; null when none is. Only under this monitor. */
    private Deque<Runnable> journal;
    /**
     * The state a create or update stored when it differs from what the mock wrote ({@link JobDefaults#onCreate},
     * the managed fields), to answer the write with; null otherwise. Only under this monitor.
     */
    private String completedWrite;
    private final ResourceKinds kinds = new ResourceKinds();
    private final ListAnswers lists;
    private final ObjectMapper json;

    IndexedCrudDispatcher(List<CustomResourceDefinitionContext> crds, ObjectMapper json) {
        super(crds);
        this.json = requireNonNull(json, "json is null");
        this.lists = new ListAnswers(kinds, json);
        this.watches = new WatchCache(json);
    }

    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet query) {
        if (query.containsKey(KubernetesAttributesExtractor.NAME)) {
            AttributeSet key = index.get(StoreKeys.identity(query));
            if (key != null && key.matches(query)) {
                String stored = map.get(key);
                if (stored != null) {
                    return Map.entry(key, stored);
                }
            }
            if (key == null && StoreKeys.identityOnly(query)) {
                // the index holds every stored object under its identity: absent there, absent everywhere (a create's check)
                return null;
            }
        }
        // a copy, taken under the map's lock: writes do not hold the mock's lock, which a read of the mock's would rely on
        for (Map.Entry<AttributeSet, String> entry : new ArrayList<>(map.entrySet())) {
            if (entry.getKey().matches(query)) {
                return entry;
            }
        }
        return null;
    }

    @Override
    public MockResponse handleGet(String path) {
        Optional<MockResponse> invalid = ListOptionsValidation.check(path, false);
        if (invalid.isPresent()) {
            return invalid.get();
        }
        if (path.contains("?")) {
            // a list with parameters: the mock's way, but selected here; a watch (the mock's handleGet passes it on) selects itself
            Selection selection = Selection.of(path, kinds);
            if (path.contains(WATCH)) {
                return list(path);
            }
            return lists.typed(path, selection.isEmpty()
                    ? lists.ordered(list(path))
                    : lists.selected(list(Selection.withoutSelectors(path)), selection));
        }
        AttributeSet query = attributeExtractor.fromPath(path);
        if (!query.containsKey(KubernetesAttributesExtractor.NAME)) {
            return lists.typed(path, lists.ordered(list(path)));
        }
        Map.Entry<AttributeSet, String> found = findResource(query);
        return found == null ? new MockResponse().setResponseCode(404) : new MockResponse().setResponseCode(200).setBody(found.getValue());
    }

    /**
     * The mock's list, under the writes' lock: the version it answers (the counter's value once the
     * items are collected) is then after every write it holds and before every write it does not, so a
     * watch from that version ({@link WatchStart}) misses nothing.
     */
    private synchronized MockResponse list(String path) {
        return super.handleGet(path);
    }

    @Override
    public synchronized MockResponse handleCreate(RecordedRequest request) {
        return completed(() -> super.handleCreate(request));
    }

    @Override
    public synchronized MockResponse handleUpdate(RecordedRequest request) {
        return completed(() -> super.handleUpdate(request));
    }

    @Override
    public synchronized MockResponse handlePatch(RecordedRequest request) {
        return completed(() -> super.handlePatch(request));
    }

    /** The mock's answer to a write, with the state stored instead when that differs from the mock's. */
    private MockResponse completed(Supplier<MockResponse> write) {
        completedWrite = null;
        MockResponse response = write.get();
        if (completedWrite != null) {
            response.setBody(completedWrite);
            completedWrite = null;
        }
        return response;
    }

    /** Answers the write under way with {@code state}, which it stored instead of what the mock wrote. Under this monitor. */
    void answerWith(String state) {
        completedWrite = state;
    }

    /** Records the manager of the write under way, if any, in what {@link #replace} stores ({@code after}) over {@code before}. */
    void recordManagers(JsonNode before, ObjectNode after, String path) {
        // the API server's dispatcher records them
    }

    @Override
    public synchronized MockResponse handleDelete(String path) {
        return super.handleDelete(path);
    }

    /**
     * A watch of what the path's attributes name (its collection, namespace, name) and its selectors
     * select; a {@code metadata.name} field selector alone is matched on the store's key, as the mock did.
     */
    @Override
    public MockResponse handleWatch(String path) {
        Optional<MockResponse> invalid = ListOptionsValidation.check(path, true);
        if (invalid.isPresent()) {
            return invalid.get();
        }
        Selection selection = Selection.of(path, kinds);
        AttributeSet query = attributeExtractor.fromPath(Selection.withoutSelectors(path));
        WatchStart start = WatchStart.of(path);
        Optional<ResourceKinds.Kind> kind = kinds.of(path);
        return new MockResponse().withWebSocketUpgrade(new WatchStream(query, selection, WatchOptions.of(path),
                stream -> opened(stream, start, kind), stream -> kind.ifPresent(watched -> bookmark(stream, watched)), watches::close));
    }

    /** The kinds of what is stored, built-in and registered by CRDs. */
    ResourceKinds kinds() {
        return kinds;
    }

    /** Under the writes' lock, so the bookmark's version follows every change the watch was sent and precedes the next. */
    private synchronized void bookmark(WatchStream watch, ResourceKinds.Kind kind) {
        watch.bookmark(kind.apiVersion(), kind.kind(), requestResourceVersion());
    }

    /** Keeps the index and the watches in step with the store: every create, update and delete of the mock comes through here. */
    @Override
    public synchronized void processEvent(String path, AttributeSet pathAttributes, AttributeSet oldAttributes,
            GenericKubernetesResource resource, String newState) {
        AttributeSet key = newState == null ? null : storedKey(pathAttributes, resource, newState);
        if (path.startsWith(CRDS) && journal == null) {
            String existing = oldAttributes == null ? null : map.get(oldAttributes);
            // it stores the CRD under the same key and registers its kind; it has no watches of its own, handleWatch is ours
            super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
            reindex(oldAttributes, key, newState);
            publish(oldAttributes, existing, key, newState);
        } else if (oldAttributes == null && newState != null && newState.contains(JobDefaults.API_VERSION)
                && readTree(newState) instanceof ObjectNode created && JobDefaults.completesCreate(created)) {
            // what kube-apiserver sets once the uid is given, which the mock gives only as it stores
            JobDefaults.onCreate(created);
            completedWrite = created.toString();
            store(null, storedKey(pathAttributes, null, completedWrite), completedWrite);
        } else {
            store(oldAttributes, key, newState);
        }
    }

    /**
     * Stores {@code updated} in place of {@code current} as the mock's PUT to {@code path} would (the
     * status kept or taken alone, per the status subresource; metadata preserved, generation and
     * resource version moved), from trees the caller parsed once; the answer is the PUT's.
     * {@code updated} becomes the stored object's tree and must not be used afterwards.
     */
    synchronized MockResponse replace(String path, Map.Entry<AttributeSet, String> current, JsonNode currentTree, ObjectNode updated) {
        return replace(path, current, currentTree, updated, true);
    }

    /**
     * As {@link #replace(String, Map.Entry, JsonNode, ObjectNode)}, the generation kept when {@code touchGeneration}
     * is false: kube-apiserver's binding writes the pod without its update strategy, which moves the generation.
     */
    synchronized MockResponse replace(String path, Map.Entry<AttributeSet, String> current, JsonNode currentTree, ObjectNode updated,
            boolean touchGeneration) {
        boolean statusPath = path.endsWith("/" + STATUS);
        ObjectNode stored = updated;
        if (statusPath) {
            stored = ((ObjectNode) currentTree).deepCopy();
            setOrRemove(stored, STATUS, updated.get(STATUS));
        } else if (isStatusSubresourceEnabledForResource(path)) {
            setOrRemove(stored, STATUS, currentTree.get(STATUS));
        }
        preserveMetadata(currentTree, stored);
        if (!statusPath && touchGeneration) {
            touchGeneration(currentTree, stored);
        }
        touchResourceVersion(currentTree, stored);
        recordManagers(currentTree, stored, path);
        String text = stored.toString();
        // the key holds the identity and the labels: unchanged, it need not be computed again from the text
        AttributeSet key = StoreKeys.sameKey(currentTree, stored) ? current.getKey()
                : storedKey(attributeExtractor.fromPath(path), null, text);
        store(current.getKey(), key, text);
        return new MockResponse().setResponseCode(200).setBody(text);
    }

    /**
     * As the mock's: the generation moves when something other than metadata and status changed. The mock
     * finds that with a JSON diff of the whole object, about a fifth of a bind's time in the API server;
     * comparing the other top-level fields says the same (a value moved between them counts as a change
     * of both, as Kubernetes counts it).
     */
    @Override
    public void touchGeneration(JsonNode current, JsonNode updated) {
        if (changedBeyondMetadataAndStatus(current, updated) && updated.get(METADATA) instanceof ObjectNode metadata) {
            metadata.put(GENERATION, current.path(METADATA).path(GENERATION).asInt(0) + 1);
        }
    }

    /** As the mock's, which found a change with a JSON diff too: the next version when anything changed. */
    @Override
    public void touchResourceVersion(JsonNode current, JsonNode updated) {
        if (!current.equals(updated) && updated.get(METADATA) instanceof ObjectNode metadata) {
            metadata.put(RESOURCE_VERSION, String.valueOf(requestResourceVersion()));
        }
    }

    static boolean changedBeyondMetadataAndStatus(JsonNode current, JsonNode updated) {
        Set<String> fields = new HashSet<>();
        current.fieldNames().forEachRemaining(fields::add);
        updated.fieldNames().forEachRemaining(fields::add);
        fields.remove(METADATA);
        fields.remove(STATUS);
        for (String field : fields) {
            if (!Objects.equals(current.get(field), updated.get(field))) {
                return true;
            }
        }
        return false;
    }

    JsonNode readTree(String text) {
        try {
            return json.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void reset() {
        super.reset();
        index.clear();
        owners.clear();
    }

    private synchronized void opened(WatchStream watch, WatchStart start, Optional<ResourceKinds.Kind> kind) {
        watches.open(watch, start, requestResourceVersion(), kind, new ArrayList<>(map.entrySet()));
    }

    /**
     * Runs the write as a dry run ({@code dryRun=All}): it is checked and answered as any write, then
     * every change it made to the store is undone, and no watch hears of it. Under the writes' lock, so
     * no other write sees the changes in between.
     */
    synchronized <T> T dryRun(Supplier<T> write) {
        journal = new ArrayDeque<>();
        try {
            return write.get();
        } finally {
            Deque<Runnable> undo = journal;
            journal = null;
            while (!undo.isEmpty()) {
                undo.pop().run();
            }
        }
    }

    /** Replaces what {@code oldKey} holds (none if null) by {@code newState} under {@code newKey} (nothing if null). */
    private void store(AttributeSet oldKey, AttributeSet newKey, String newState) {
        String existing = oldKey == null ? null : map.remove(oldKey);
        if (newKey != null) {
            map.put(newKey, newState);
        }
        reindex(oldKey, newKey, newState);
        if (journal != null) {
            journal.push(() -> {
                if (newKey != null) {
                    map.remove(newKey);
                }
                if (oldKey != null && existing != null) {
                    map.put(oldKey, existing);
                }
                reindex(newKey, existing == null ? null : oldKey, existing);
            });
            return;
        }
        publish(oldKey, existing, newKey, newState);
    }

    private void reindex(AttributeSet oldKey, AttributeSet newKey, String newState) {
        if (oldKey != null) {
            index.remove(StoreKeys.identity(oldKey), oldKey);
            owners.remove(StoreKeys.identity(oldKey));
        }
        if (newKey != null) {
            index.put(StoreKeys.identity(newKey), newKey);
            if (newState != null && newState.contains(OWNER_REFERENCES)) {
                indexOwners(newKey, newState);
            }
        }
    }

    /** Owner uids to the objects that name them, for the garbage collector. */
    OwnerIndex owners() {
        return owners;
    }

    private void indexOwners(AttributeSet key, String state) {
        JsonNode object = readTree(state);
        JsonNode metadata = object.path(METADATA);
        String path = OwnerIndex.path(object.path("apiVersion").asText(), key.getAttribute(KubernetesAttributesExtractor.PLURAL)
                .getValues().get(0).toString(), metadata.path("namespace").asText(""), metadata.path("name").asText());
        owners.put(StoreKeys.identity(key), path, object);
    }

    /** Tells the watches of a write: a create or update at its object's version, a delete at a version of its own, as etcd gives it. */
    private void publish(AttributeSet oldKey, String existing, AttributeSet newKey, String newState) {
        if (!Objects.equals(existing, newState)) {
            watches.publish(newState == null ? requestResourceVersion() : WatchStart.storedVersion(newState), oldKey, existing, newKey, newState);
        }
    }

    /** The key the mock stores a new state under, computed as it computes it. */
    private AttributeSet storedKey(AttributeSet pathAttributes, GenericKubernetesResource resource, String newState) {
        KubernetesAttributesExtractor extractor = (KubernetesAttributesExtractor) attributeExtractor;
        AttributeSet key = resource != null ? extractor.extract(resource) : extractor.fromResource(newState);
        return key.containsKey(KubernetesAttributesExtractor.PLURAL) ? key : AttributeSet.merge(pathAttributes, key);
    }

    private static void setOrRemove(ObjectNode object, String field, JsonNode value) {
        if (value == null) {
            object.remove(field);
        } else {
            object.set(field, value);
        }
    }
}
