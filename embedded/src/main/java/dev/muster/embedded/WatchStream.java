package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import com.google.errorprone.annotations.ThreadSafe;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watch, over WebSocket or over a chunked HTTP response ({@link ChunkedWatchSocket}): the stored
 * objects that match are sent as {@code ADDED} when it opens, those after the watch's
 * {@link WatchStart}, then each change. An event is sent as the text the store holds (the mock read
 * every stored object into a {@code GenericKubernetesResource} and wrote it out again, once per event
 * and per watcher), or as a Table row when the client asked for one ({@link #printWith}). It ends at
 * its {@link WatchOptions#timeout()}, and sends the bookmarks its options ask for.
 *
 * <p>Thread-safe: events are queued by the writing thread and sent in that order by a thread of the
 * stream's own, so the socket sees them as the store changed.
 */
@ThreadSafe
final class WatchStream extends WebSocketListener {
    private static final Logger log = LoggerFactory.getLogger(WatchStream.class);

    /** Watch event types, as the API server names them. */
    enum Type {
        ADDED,
        MODIFIED,
        DELETED,
        BOOKMARK
    }

    /** How an event's object is written when the client asked for something other than the object. */
    @FunctionalInterface
    interface Printer {
        /** The text sent for {@code object} (stored JSON); {@code first} for the stream's first event. */
        String print(String object, boolean first);
    }

    private final AttributeSet query;
    private final Selection selection;
    /** The name a {@code metadata.name=NAME} selector asks for, matched on the store's key rather than the object. */
    private final Optional<String> name;
    private final WatchOptions options;
    private final Consumer<WatchStream> opened;
    private final Consumer<WatchStream> bookmarkDue;
    private final Consumer<WatchStream> closed;
    private final AtomicReference<WebSocket> socket = new AtomicReference<>();
    private final AtomicReference<Printer> printer = new AtomicReference<>();
    /** Only the sender thread reads and writes it. */
    private boolean sentAny;
    private final ScheduledThreadPoolExecutor sender = new ScheduledThreadPoolExecutor(1,
            new ThreadFactoryBuilder().setNameFormat("embedded-api-watch").setDaemon(true).build());

    /**
     * @param opened called once the socket is open, to send what is stored and start receiving changes
     * @param bookmarkDue called when a bookmark is due, to {@link #bookmark} the current version in order with the changes
     * @param closed called once the socket is closed or failed, to stop receiving changes
     */
    WatchStream(AttributeSet query, Selection selection, WatchOptions options, Consumer<WatchStream> opened,
            Consumer<WatchStream> bookmarkDue, Consumer<WatchStream> closed) {
        this.query = requireNonNull(query, "query is null");
        requireNonNull(selection, "selection is null");
        this.name = selection.exactName();
        this.selection = name.isPresent() ? selection.labelsOnly() : selection;
        this.options = requireNonNull(options, "options is null");
        this.opened = requireNonNull(opened, "opened is null");
        this.bookmarkDue = requireNonNull(bookmarkDue, "bookmarkDue is null");
        this.closed = requireNonNull(closed, "closed is null");
        // once the watch has closed, its deadline and next bookmark are moot
        sender.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** Prints each object with {@code printer} (a Table, for kubectl); to be set before the watch opens. */
    void printWith(Printer tablePrinter) {
        printer.set(requireNonNull(tablePrinter, "tablePrinter is null"));
    }

    /** Whether an object stored under this key, as {@code json}, is in the watched set. */
    boolean matches(AttributeSet key, String json) {
        if (!key.matches(query)) {
            return false;
        }
        if (name.isPresent()) {
            Attribute stored = key.getAttribute(KubernetesAttributesExtractor.NAME);
            if (stored == null || stored.getValues().isEmpty() || !name.get().equals(stored.getValues().get(0).toString())) {
                return false;
            }
        }
        return selection.matches(json);
    }

    /** Queues one event; {@code object} is the object's JSON as stored. */
    void send(Type type, String object) {
        enqueue(() -> {
            Printer print = printer.get();
            String text = print == null ? object : print.print(object, !sentAny);
            sentAny = true;
            return "{\"type\":\"" + type.name() + "\",\"object\":" + text + "}";
        }, type.name());
    }

    /**
     * Queues a {@code BOOKMARK}: an object of the watched kind with nothing but {@code resourceVersion},
     * as kube-apiserver sends one, telling the client it has seen every change up to that version.
     */
    void bookmark(String apiVersion, String kind, long resourceVersion) {
        bookmark(apiVersion, kind, resourceVersion, false);
    }

    /**
     * Queues a {@code BOOKMARK}; {@code initialEventsEnd} annotates it {@code k8s.io/initial-events-end: "true"},
     * the end of a watch list's initial state.
     */
    void bookmark(String apiVersion, String kind, long resourceVersion, boolean initialEventsEnd) {
        ObjectNode object = JsonNodeFactory.instance.objectNode().put("kind", kind).put("apiVersion", apiVersion);
        ObjectNode metadata = object.putObject("metadata").put("resourceVersion", String.valueOf(resourceVersion));
        if (initialEventsEnd) {
            metadata.putObject("annotations").put("k8s.io/initial-events-end", "true");
        }
        String event = JsonNodeFactory.instance.objectNode().put("type", Type.BOOKMARK.name()).set("object", object).toString();
        enqueue(() -> event, Type.BOOKMARK.name());
    }

    /**
     * Ends the watch as kube-apiserver ends one whose version it no longer has: an {@code ERROR} event
     * with a 410 Gone status, on which an informer lists again.
     */
    void expire(String message) {
        ObjectNode status = JsonNodeFactory.instance.objectNode()
                .put("kind", "Status")
                .put("apiVersion", "v1")
                .put("status", "Failure")
                .put("message", message)
                .put("reason", "Expired")
                .put("code", 410);
        status.putObject("metadata");
        String event = JsonNodeFactory.instance.objectNode().put("type", "ERROR").set("object", status).toString();
        enqueue(() -> event, "ERROR");
        end();
    }

    /** Queues one event for the socket, in order; dropped once the watch has closed. */
    private void enqueue(Supplier<String> event, String type) {
        try {
            sender.execute(() -> socket.get().send(event.get()));
        } catch (RejectedExecutionException e) {
            log.debug("watch closed, event dropped type={}", type);
        }
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
        socket.set(webSocket);
        opened.accept(this);
        options.timeout().ifPresent(timeout -> schedule(this::end, timeout));
        scheduleBookmark(Duration.ZERO);
    }

    /** Schedules the bookmark due after {@code elapsed} since the watch opened, and from it the next. */
    private void scheduleBookmark(Duration elapsed) {
        Optional<Duration> next = options.nextBookmark(elapsed);
        next.ifPresent(at -> schedule(() -> {
            bookmarkDue.accept(this);
            scheduleBookmark(at);
        }, at.minus(elapsed)));
    }

    private void schedule(Runnable task, Duration delay) {
        try {
            sender.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            log.debug("watch closed, nothing scheduled");
        }
    }

    /** Ends the watch from the server's side, once what is queued has been sent: at its deadline, or when it expired. */
    private void end() {
        try {
            sender.execute(() -> {
                socket.get().close(1000, "");
                stop();
            });
        } catch (RejectedExecutionException e) {
            log.debug("watch closed already");
        }
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
        webSocket.close(code, reason);
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
        stop();
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable failure, Response response) {
        webSocket.close(1000, String.valueOf(failure.getMessage()));
        stop();
    }

    private void stop() {
        closed.accept(this);
        sender.shutdown();
    }
}
