package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.ThreadSafe;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watch over WebSocket, as the mock serves it (the stored objects that match are sent as
 * {@code ADDED} when the socket opens, those after the watch's {@link WatchStart}, then each change),
 * but an event is sent as the text the store holds: the mock read every stored object into a {@code GenericKubernetesResource} and wrote it out
 * again, once per event and per watcher, which was a third of the server's time while pods were bound.
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
        DELETED
    }

    private final AttributeSet query;
    private final Consumer<WatchStream> opened;
    private final Consumer<WatchStream> closed;
    private final AtomicReference<WebSocket> socket = new AtomicReference<>();
    private final ExecutorService sender = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "embedded-api-watch");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param opened called once the socket is open, to send what is stored and start receiving changes
     * @param closed called once the socket is closed or failed, to stop receiving changes
     */
    WatchStream(AttributeSet query, Consumer<WatchStream> opened, Consumer<WatchStream> closed) {
        this.query = requireNonNull(query, "query is null");
        this.opened = requireNonNull(opened, "opened is null");
        this.closed = requireNonNull(closed, "closed is null");
    }

    /** Whether an object stored under this key is in the watched set. */
    boolean matches(AttributeSet key) {
        return key.matches(query);
    }

    /** Queues one event; {@code object} is the object's JSON as stored. */
    void send(Type type, String object) {
        enqueue("{\"type\":\"" + type.name() + "\",\"object\":" + object + "}", type.name());
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
        enqueue(JsonNodeFactory.instance.objectNode().put("type", "ERROR").set("object", status).toString(), "ERROR");
    }

    /** Queues one event for the socket, in order; dropped once the watch has closed. */
    private void enqueue(String event, String type) {
        try {
            sender.execute(() -> socket.get().send(event));
        } catch (RejectedExecutionException e) {
            log.debug("watch closed, event dropped type={}", type);
        }
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
        socket.set(webSocket);
        opened.accept(this);
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
