package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.ThreadSafe;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * The open watches and the recent changes they were sent, as kube-apiserver's watch cache keeps them:
 * a watch from a version (what a list answered, or the last event a client saw before it reconnects)
 * gets each change after that version as it happened, {@code MODIFIED} and {@code DELETED} included,
 * not the objects' current state. Sending the current state instead would lose every delete made
 * between a client's list and its watch: the client would keep the deleted object for ever.
 *
 * <p>The last {@value #CAPACITY} changes are kept (kube-apiserver sizes its cache per resource, from
 * 100 events up); a watch from a version older than the oldest kept ends with 410 Gone ("too old
 * resource version"), and the client lists again, as it does against kube-apiserver. A change holds the
 * stored texts, which the store itself drops when it moves on, so the cost is those texts.
 *
 * <p>Every method is called under the dispatcher's monitor, which every write holds: a watch that
 * opens sees the store and the history between two writes.
 */
@ThreadSafe
final class WatchCache {
    static final int CAPACITY = 10_000;

    /** One write: the object before (null for a create) and after (null for a delete), and the write's version. */
    private record Change(long version, AttributeSet oldKey, String before, AttributeSet newKey, String after) {}

    private final ObjectMapper json;

    private final Set<WatchStream> watches = new CopyOnWriteArraySet<>();
    /** Only under the dispatcher's monitor. */
    private final Deque<Change> history = new ArrayDeque<>();
    /** Every change after this version is in {@link #history}; only under the dispatcher's monitor. */
    private long compactedThrough;

    WatchCache(ObjectMapper json) {
        this.json = requireNonNull(json, "json is null");
    }

    /** Records a write of {@code version} and sends it to the watches it concerns, as it entered, changed in or left their set. */
    void publish(long version, AttributeSet oldKey, String before, AttributeSet newKey, String after) {
        if (Objects.equals(before, after)) {
            return;
        }
        Change change = new Change(version, oldKey, before, newKey, after);
        history.addLast(change);
        if (history.size() > CAPACITY) {
            compactedThrough = history.removeFirst().version();
        }
        for (WatchStream watch : watches) {
            send(watch, change);
        }
    }

    /**
     * Opens {@code watch} at {@code start}: every stored object it selects as {@code ADDED} (ended by the
     * initial-events bookmark when it asked for one) for a watch without a version, or each change after
     * the version; then it hears each new change.
     *
     * @param next the version the next write will get
     */
    void open(WatchStream watch, WatchStart start, long next, Optional<ResourceKinds.Kind> kind, Iterable<Map.Entry<AttributeSet, String>> stored) {
        if (start.resourceVersion() >= next) {
            // a version this server never gave (another server's, on the same address): gone, so the client lists anew
            watch.expire("too old resource version: " + start.resourceVersion() + " (" + (next - 1) + ")");
            return;
        }
        if (start.initialEvents() || start.resourceVersion() == 0) {
            for (Map.Entry<AttributeSet, String> entry : stored) {
                if (watch.matches(entry.getKey(), entry.getValue())) {
                    watch.send(WatchStream.Type.ADDED, entry.getValue());
                }
            }
            if (start.initialEvents()) {
                // the version of the state just sent: the informer resumes from it after a reconnect
                kind.ifPresent(watched -> watch.bookmark(watched.apiVersion(), watched.kind(), next, true));
            }
        } else if (start.resourceVersion() < compactedThrough) {
            watch.expire("too old resource version: " + start.resourceVersion() + " (" + compactedThrough + ")");
            return;
        } else {
            for (Change change : history) {
                if (change.version() > start.resourceVersion()) {
                    send(watch, change);
                }
            }
        }
        watches.add(watch);
    }

    /**
     * What a {@code DELETED} event carries, as kube-apiserver sends it: the object as it was, at the
     * version of the write that deleted it or took it out of the watch's selection, so a client that
     * resumes from its last event's version does not hear of the delete again.
     */
    private String departed(Change change) {
        try {
            JsonNode object = json.readTree(change.before());
            if (object.path("metadata") instanceof ObjectNode metadata) {
                metadata.put("resourceVersion", String.valueOf(change.version()));
                return object.toString();
            }
        } catch (JsonProcessingException e) {
            // stored text is JSON the store wrote; sent as it is otherwise
        }
        return change.before();
    }

    void close(WatchStream watch) {
        watches.remove(watch);
    }

    private void send(WatchStream watch, Change change) {
        boolean before = change.oldKey() != null && change.before() != null && watch.matches(change.oldKey(), change.before());
        boolean after = change.newKey() != null && change.after() != null && watch.matches(change.newKey(), change.after());
        if (before && after) {
            watch.send(WatchStream.Type.MODIFIED, change.after());
        } else if (before) {
            watch.send(WatchStream.Type.DELETED, departed(change));
        } else if (after) {
            watch.send(WatchStream.Type.ADDED, change.after());
        }
    }
}
