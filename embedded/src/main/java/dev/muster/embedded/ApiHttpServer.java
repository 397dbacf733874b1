package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.fabric8.mockwebserver.vertx.ServerWebSocketHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The HTTP side of the embedded API server, on Vert.x as fabric8's mock web server is: each request
 * goes to the dispatcher, and a WebSocket upgrade whose answer is a watch becomes a WebSocket, as the
 * mock does it. What the mock cannot do is a watch over plain HTTP, since its answers are whole
 * bodies: here a watch request that does not upgrade ({@code watch=true}, or any value Go's
 * {@code strconv.ParseBool} reads as true, as kube-apiserver accepts it) gets a chunked stream of
 * events ({@link ChunkedWatchSocket}) from the same {@link WatchStream} a WebSocket would get.
 */
final class ApiHttpServer implements AutoCloseable {
    private static final List<String> WEBSOCKET_SUB_PROTOCOLS =
            List.of("v1.channel.k8s.io", "v2.channel.k8s.io", "v3.channel.k8s.io", "v4.channel.k8s.io");
    private static final String CONTENT_LENGTH = "Content-Length";
    private static final String CONTENT_TYPE = "Content-Type";
    private static final long MAX_CONCURRENT_STREAMS = 1000;

    private final Vertx vertx;
    private final HttpServer server;

    private ApiHttpServer(Vertx vertx, HttpServer server) {
        this.vertx = requireNonNull(vertx, "vertx is null");
        this.server = requireNonNull(server, "server is null");
    }

    /**
     * Serves {@code dispatcher} on {@code address:port} (0 for any free port): over TLS with {@code
     * certificate}, offering HTTP/2 and HTTP/1.1 by ALPN as kube-apiserver does, or over plain HTTP
     * without one.
     *
     * @throws UncheckedIOException when the port cannot be bound
     */
    static ApiHttpServer start(InetAddress address, int port, Dispatcher dispatcher, Optional<ServingCertificate> certificate) {
        requireNonNull(dispatcher, "dispatcher is null");
        requireNonNull(certificate, "certificate is null");
        Vertx vertx = Vertx.vertx();
        HttpServerOptions options = new HttpServerOptions()
                .setHost(address.getHostAddress())
                .setPort(port)
                .setAlpnVersions(List.of(HttpVersion.HTTP_2, HttpVersion.HTTP_1_1))
                // client-go multiplexes every watch of a process on one HTTP/2 connection; kube-apiserver allows 1,000 streams on one (Vert.x: 100)
                .setInitialSettings(new Http2Settings().setMaxConcurrentStreams(MAX_CONCURRENT_STREAMS))
                .setWebSocketSubProtocols(WEBSOCKET_SUB_PROTOCOLS)
                .setHandle100ContinueAutomatically(true);
        if (certificate.isPresent() && OpenSSLEngineOptions.isAvailable()) {
            // BoringSSL: the JDK's TLS engine cost an eighth of the pods bound per second (muster bench --embedded)
            options.setSslEngineOptions(new OpenSSLEngineOptions());
        }
        certificate.ifPresent(serving -> options.setSsl(true).setUseAlpn(true).setKeyCertOptions(new PemKeyCertOptions()
                .setKeyValue(Buffer.buffer(serving.servingKeyPem()))
                .setCertValue(Buffer.buffer(serving.servingPem() + serving.authorityPem()))));
        HttpServer server = vertx.createHttpServer(options).requestHandler(request -> handle(request, dispatcher));
        try {
            await(server.listen());
        } catch (IOException e) {
            vertx.close();
            throw new UncheckedIOException(new IOException("cannot serve on " + address.getHostAddress() + ":" + port + ": "
                    + e.getMessage(), e));
        }
        return new ApiHttpServer(vertx, server);
    }

    int port() {
        return server.actualPort();
    }

    @Override
    public void close() {
        try {
            await(server.close());
        } catch (IOException e) {
            // closing anyway
        } finally {
            try {
                await(vertx.close());
            } catch (IOException e) {
                // nothing more to close
            }
        }
    }

    private static void handle(HttpServerRequest event, Dispatcher dispatcher) {
        if (isWebSocketUpgrade(event)) {
            // an upgrade is done from within the handler, before the (empty) request is read
            RecordedRequest request = recorded(event, null);
            MockResponse response = dispatcher.dispatch(request);
            if (response.getWebSocketListener() != null) {
                event.toWebSocket().onFailure(failure -> fail(event, failure)).onSuccess(new ServerWebSocketHandler(request, response));
            } else {
                send(event.response(), response);
            }
            return;
        }
        Future<Buffer> body = hasBody(event) ? event.body() : Future.succeededFuture(null);
        body.onFailure(failure -> fail(event, failure)).onSuccess(buffer -> {
            RecordedRequest request = recorded(event, buffer);
            boolean watch = request.method() == HttpMethod.GET && QueryParameters.of(request.getPath()).flag("watch");
            MockResponse response = dispatcher.dispatch(watch ? asMockWatch(request) : request);
            WebSocketListener listener = response.getWebSocketListener();
            if (listener != null) {
                stream(event, request, response, listener);
            } else {
                send(event.response(), response);
            }
        });
    }

    /** Streams the watch the dispatcher opened: headers at once, as kube-apiserver flushes them, then one event per line. */
    private static void stream(HttpServerRequest event, RecordedRequest request, MockResponse answer, WebSocketListener watch) {
        HttpServerResponse response = event.response().setStatusCode(200);
        answer.getHeaders().toMultimap().forEach((name, values) -> response.headers().add(name, values));
        if (event.version() == HttpVersion.HTTP_1_1) {
            response.setChunked(true);
        }
        ChunkedWatchSocket socket = new ChunkedWatchSocket(request, response);
        response.closeHandler(closed -> {
            if (socket.markEnded()) {
                watch.onClosed(socket, 1001, "the client went away");
            }
        });
        response.writeHead();
        watch.onOpen(socket, answer);
    }

    /** The mock knows a watch by {@code watch=true} in its query: any other true value reads as a list there. */
    private static RecordedRequest asMockWatch(RecordedRequest request) {
        String path = request.getPath();
        int query = path.indexOf('?');
        StringBuilder rewritten = new StringBuilder(path.substring(0, query + 1));
        for (String parameter : path.substring(query + 1).split("&", -1)) {
            if (parameter.startsWith("watch=")) {
                parameter = "watch=true";
            }
            rewritten.append(rewritten.charAt(rewritten.length() - 1) == '?' ? "" : "&").append(parameter);
        }
        return new RecordedRequest(request.getHttpVersion(), request.method(), rewritten.toString(), request.getHeaders(),
                request.getBody());
    }

    private static void send(HttpServerResponse response, MockResponse answer) {
        response.setStatusCode(answer.code());
        answer.getHeaders().toMultimap().forEach((name, values) -> response.headers().add(name, values));
        if (answer.getBody() != null && answer.getBody().size() > 0) {
            if (!response.headers().contains("Transfer-Encoding")) {
                response.headers().add(CONTENT_LENGTH, String.valueOf(answer.getBody().size()));
            }
            response.send(Buffer.buffer(answer.getBody().getBytes()));
        } else {
            response.end();
        }
    }

    private static void fail(HttpServerRequest event, Throwable failure) {
        if (!event.response().headWritten()) {
            event.response().setStatusCode(500).setStatusMessage(String.valueOf(failure.getMessage())).send();
        }
    }

    private static RecordedRequest recorded(HttpServerRequest event, Buffer body) {
        return new RecordedRequest(event.version().alpnName().toUpperCase(Locale.ROOT), HttpMethod.fromVertx(event.method()),
                event.uri(), Headers.builder().addAll(event.headers()).build(),
                new io.fabric8.mockwebserver.http.Buffer(body == null ? null : body.getBytes()));
    }

    private static boolean isWebSocketUpgrade(HttpServerRequest event) {
        String upgrade = event.getHeader("Upgrade");
        return upgrade != null && upgrade.toLowerCase(Locale.ROOT).contains("websocket");
    }

    private static boolean hasBody(HttpServerRequest event) {
        String length = event.headers().get(CONTENT_LENGTH);
        if (length != null && !length.isBlank()) {
            try {
                return Long.parseLong(length.trim()) > 0;
            } catch (NumberFormatException e) {
                return true;
            }
        }
        return event.headers().contains(CONTENT_TYPE) || event.headers().contains("Transfer-Encoding");
    }

    /** The future's value within 10 s; its failure, a timeout or an interrupt as an IOException. */
    static <T> T await(Future<T> future) throws IOException {
        try {
            return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException(e.getCause() == null ? e : e.getCause());
        }
    }
}
