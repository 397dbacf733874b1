package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kubelet API of the simulated nodes, for a real kube-apiserver: it proxies {@code pods/NAME/log} to
 * the node's kubelet at the node's address and {@code status.daemonEndpoints.kubeletEndpoint.Port}, and
 * this answers {@code GET /containerLogs/NAMESPACE/NAME/CONTAINER} for every simulated node, with what
 * {@link PodLogs} makes of the pod (the embedded server answers the same itself, with no kubelet to ask).
 * Served over TLS on 127.0.0.1 with a certificate made at start: kube-apiserver verifies a kubelet's
 * certificate only when given {@code --kubelet-certificate-authority}, and presents no client
 * certificate without {@code --kubelet-client-certificate}, so none is asked for. Anything else is
 * 404, as the kubelet's mux answers a path it does not serve; exec, attach and port-forward are not
 * served (nothing runs in a simulated container).
 *
 * <p>The pod is read from the API server at each request, through {@code pods}, on a worker thread (not
 * from an informer, which may not have seen the status the kubelet has just written).
 */
final class KubeletApi implements AutoCloseable {
    private static final Pattern CONTAINER_LOGS = Pattern.compile("^/containerLogs/([^/]+)/([^/]+)/([^/]+)$");

    private final Vertx vertx;
    private final HttpServer server;

    private KubeletApi(Vertx vertx, HttpServer server) {
        this.vertx = requireNonNull(vertx, "vertx is null");
        this.server = requireNonNull(server, "server is null");
    }

    /**
     * Serves on a free port of 127.0.0.1.
     *
     * @param pods the pod of a namespace and name, empty when there is none (called on a worker thread)
     * @throws UncheckedIOException when no port can be bound
     */
    static KubeletApi start(BiFunction<String, String, Optional<Pod>> pods, Clock clock) {
        requireNonNull(pods, "pods is null");
        requireNonNull(clock, "clock is null");
        ServingCertificate certificate = ServingCertificate.generate(clock);
        Vertx vertx = Vertx.vertx();
        HttpServerOptions options = new HttpServerOptions().setHost("127.0.0.1").setPort(0).setSsl(true)
                .setKeyCertOptions(new PemKeyCertOptions().setKeyValue(Buffer.buffer(certificate.servingKeyPem()))
                        .setCertValue(Buffer.buffer(certificate.servingPem() + certificate.authorityPem())));
        HttpServer server = vertx.createHttpServer(options).requestHandler(request -> handle(vertx, request, pods, clock));
        try {
            ApiHttpServer.await(server.listen());
        } catch (IOException e) {
            close(vertx);
            throw new UncheckedIOException(new IOException("cannot serve the kubelet API on 127.0.0.1: " + e.getMessage(), e));
        }
        return new KubeletApi(vertx, server);
    }

    /** Where kube-apiserver finds this: the address and port the simulated nodes report. */
    KubeletEndpoint endpoint() {
        return new KubeletEndpoint("127.0.0.1", server.actualPort());
    }

    @Override
    public void close() {
        try {
            ApiHttpServer.await(server.close());
        } catch (IOException e) {
            // closing anyway
        } finally {
            close(vertx);
        }
    }

    private static void handle(Vertx vertx, HttpServerRequest request, BiFunction<String, String, Optional<Pod>> pods, Clock clock) {
        Matcher logs = CONTAINER_LOGS.matcher(request.path());
        if (request.method() != HttpMethod.GET || !logs.matches()) {
            answer(request, new PodLogs.KubeletAnswer(404, "404 page not found\n"));
            return;
        }
        String namespace = logs.group(1);
        String name = logs.group(2);
        String container = logs.group(3);
        QueryParameters query = QueryParameters.of(request.uri());
        vertx.<PodLogs.KubeletAnswer>executeBlocking(() -> pods.apply(namespace, name)
                        .map(pod -> PodLogs.kubeletAnswer(namespace, name, Serialization.jsonMapper().<JsonNode>valueToTree(pod),
                                container, query, clock.instant()))
                        // the kubelet's words (server.go, getContainerLogs) for a pod it does not have
                        .orElseGet(() -> new PodLogs.KubeletAnswer(404, "pod \"" + namespace + "/" + name + "\" does not exist\n")),
                        false)
                .onSuccess(answer -> answer(request, answer))
                .onFailure(failure -> answer(request, new PodLogs.KubeletAnswer(500, String.valueOf(failure.getMessage()))));
    }

    private static void answer(HttpServerRequest request, PodLogs.KubeletAnswer answer) {
        request.response().setStatusCode(answer.status()).putHeader("Content-Type", "text/plain; charset=utf-8").end(answer.text());
    }

    private static void close(Vertx vertx) {
        try {
            ApiHttpServer.await(vertx.close());
        } catch (IOException e) {
            // nothing more to close
        }
    }
}
