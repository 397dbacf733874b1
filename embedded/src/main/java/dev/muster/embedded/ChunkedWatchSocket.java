package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocket;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A watch over plain HTTP, as kube-apiserver serves one to clients that do not upgrade to WebSocket
 * (kubectl, client-go, the Python client): a 200 answer with {@code Transfer-Encoding: chunked}, one
 * JSON event per line. It stands in for the socket a {@link WatchStream} writes to, so both transports
 * send the same events; closing it ends the response.
 */
final class ChunkedWatchSocket implements WebSocket {
    private final RecordedRequest request;
    private final HttpServerResponse response;
    private final AtomicBoolean ended = new AtomicBoolean();

    ChunkedWatchSocket(RecordedRequest request, HttpServerResponse response) {
        this.request = requireNonNull(request, "request is null");
        this.response = requireNonNull(response, "response is null");
    }

    @Override
    public RecordedRequest request() {
        return request;
    }

    @Override
    public boolean send(String event) {
        return send((event + "\n").getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean send(byte[] event) {
        if (ended.get()) {
            return false;
        }
        response.write(Buffer.buffer(event));
        return true;
    }

    @Override
    public boolean close(int code, String reason) {
        if (ended.compareAndSet(false, true)) {
            response.end();
            return true;
        }
        return false;
    }

    /** Whether the response has ended, from this side or because the client went away. */
    boolean markEnded() {
        return ended.compareAndSet(false, true);
    }
}
