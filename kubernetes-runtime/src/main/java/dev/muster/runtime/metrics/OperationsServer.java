package dev.muster.runtime.metrics;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import com.sun.net.httpserver.HttpExchange;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code /metrics} with the official Prometheus client's HTTP server (every format it
 * negotiates, the text format by default), and on the same port {@code /healthz} (liveness: 200 or
 * 500) and {@code /readyz} (readiness: 200 or 503); any other path is 404. Two daemon threads.
 */
public final class OperationsServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(OperationsServer.class);
    private static final String TEXT = "text/plain; charset=utf-8";

    private final HTTPServer server;
    private final ExecutorService executor;

    private OperationsServer(HTTPServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Binds {@code address} (port 0 picks a free one) and starts serving. */
    public static OperationsServer start(InetSocketAddress address, PrometheusRegistry registry, Health health) throws IOException {
        requireNonNull(address, "address is null");
        requireNonNull(registry, "registry is null");
        requireNonNull(health, "health is null");
        ExecutorService executor = Executors.newFixedThreadPool(2,
                new ThreadFactoryBuilder().setNameFormat("muster-operations-%d").setDaemon(true).build());
        HTTPServer server = HTTPServer.builder()
                .inetAddress(address.getAddress())
                .port(address.getPort())
                .registry(registry)
                .executorService(executor)
                .metricsHandlerPath("/metrics")
                .registerHealthHandler(false)
                .defaultHandler(exchange -> health(exchange, health))
                .buildAndStart();
        OperationsServer started = new OperationsServer(server, executor);
        log.info("operations server started address={} paths=/metrics,/healthz,/readyz", started.address());
        return started;
    }

    public InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getPort());
    }

    @Override
    public void close() {
        server.close();
        executor.shutdownNow();
    }

    private static void health(HttpExchange exchange, Health health) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            int code;
            String body;
            if (!path.equals("/healthz") && !path.equals("/readyz")) {
                code = 404;
                body = "not found";
            } else if (!method.equals("GET") && !method.equals("HEAD")) {
                code = 405;
                body = "method not allowed";
            } else {
                Health.Status status = path.equals("/healthz") ? health.liveness() : health.readiness();
                code = status.code();
                body = status.text();
            }
            byte[] bytes = (body + "\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", TEXT);
            boolean head = method.equals("HEAD");
            exchange.sendResponseHeaders(code, head ? -1 : bytes.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }
}
