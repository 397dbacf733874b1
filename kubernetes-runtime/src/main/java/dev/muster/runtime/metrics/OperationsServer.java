package dev.muster.runtime.metrics;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code /metrics} (Prometheus text format), {@code /healthz} (liveness: 200 or 500) and
 * {@code /readyz} (readiness: 200 or 503) on the JDK's HTTP server, from two daemon threads.
 */
public final class OperationsServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(OperationsServer.class);
    private static final String TEXT = "text/plain; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    private OperationsServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Binds {@code address} (port 0 picks a free one) and starts serving. */
    public static OperationsServer start(InetSocketAddress address, SchedulerMetrics metrics, Health health) throws IOException {
        requireNonNull(address, "address is null");
        requireNonNull(metrics, "metrics is null");
        requireNonNull(health, "health is null");
        HttpServer server = HttpServer.create(address, 0);
        ExecutorService executor = Executors.newFixedThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "muster-operations");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext("/metrics", exchange -> answer(exchange, "/metrics", () -> {
            PrometheusText text = new PrometheusText();
            metrics.writeTo(text);
            health.writeTo(text);
            return new Answer(200, PrometheusText.CONTENT_TYPE, text.toString());
        }));
        server.createContext("/healthz", exchange -> answer(exchange, "/healthz", () -> plain(health.liveness())));
        server.createContext("/readyz", exchange -> answer(exchange, "/readyz", () -> plain(health.readiness())));
        server.createContext("/", exchange -> answer(exchange, "/", () -> new Answer(404, TEXT, "not found\n")));
        server.start();
        OperationsServer started = new OperationsServer(server, executor);
        log.info("operations server started address={} paths=/metrics,/healthz,/readyz", started.address());
        return started;
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private record Answer(int code, String contentType, String body) {}

    private static Answer plain(Health.Status status) {
        return new Answer(status.code(), TEXT, status.text() + "\n");
    }

    private static void answer(HttpExchange exchange, String path, Supplier<Answer> handler) throws IOException {
        try (exchange) {
            Answer answer;
            if (!exchange.getRequestURI().getPath().equals(path) && !path.equals("/")) {
                answer = new Answer(404, TEXT, "not found\n");
            } else if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                answer = new Answer(405, TEXT, "method not allowed\n");
            } else {
                answer = handler.get();
            }
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", answer.contentType());
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(answer.code(), head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }
}
