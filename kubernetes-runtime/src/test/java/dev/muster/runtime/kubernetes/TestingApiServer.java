package dev.muster.runtime.kubernetes;

import dev.muster.embedded.EmbeddedApiServer;
import dev.muster.embedded.RequestInterceptor;
import dev.muster.embedded.RequestInterceptor.Failure;
import dev.muster.embedded.RequestInterceptor.Request;
import dev.muster.runtime.controller.CustomResourceDefinitions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The embedded API server (the one {@code muster up} runs, with Volcano's CRDs) for tests, over plain
 * HTTP on loopback, with faults to inject, a count of Binding requests per pod and a log of requests,
 * all through its {@link RequestInterceptor}. Not a fake of its own: what it stores, watches, patches
 * and refuses is the embedded server's.
 */
public final class TestingApiServer implements AutoCloseable {
    private static final Pattern BINDING = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding$");
    private static final Map<CustomResourceDefinitions, List<String>> MANIFESTS = new ConcurrentHashMap<>();

    private final List<RequestInterceptor> faults = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> bindingRequests = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final EmbeddedApiServer server;
    private final KubernetesClient client;

    /** Serves Volcano's CRDs and, beside them, those of {@code definitions} (a bridge's). */
    public TestingApiServer(CustomResourceDefinitions... definitions) {
        this.server = EmbeddedApiServer.startPlainHttp(0, this::intercept);
        this.client = server.newClient();
        try {
            for (CustomResourceDefinitions definition : definitions) {
                create(definition);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        // what a test counts is what its code sent
        requests.clear();
    }

    public KubernetesClient client() {
        return client;
    }

    /**
     * A new client, as a restarted scheduler would have. Like {@code muster run}'s, it does not retry
     * failed requests itself: Muster's {@code RetryPolicy} is the one retry layer.
     */
    public KubernetesClient newClient() {
        return server.newClient();
    }

    /** Answers {@code code} to the next {@code times} Binding requests for this pod ({@code namespace/name}). */
    public void failBindings(String pod, int code, int times) {
        AtomicInteger left = new AtomicInteger(times);
        faults.add(request -> podOfBinding(request).filter(pod::equals).isPresent() && left.getAndDecrement() > 0
                ? Optional.of(injected(code))
                : Optional.empty());
    }

    /** Answers {@code code} to every request whose path contains {@code fragment}, until {@link #clearFaults()}. */
    public void fail(String fragment, int code) {
        faults.add(request -> request.path().contains(fragment) ? Optional.of(injected(code)) : Optional.empty());
    }

    public void clearFaults() {
        faults.clear();
    }

    /** Binding requests that reached the store (not refused by an injected fault), for a pod {@code namespace/name}. */
    public int bindingRequests(String pod) {
        AtomicInteger count = bindingRequests.get(pod);
        return count == null ? 0 : count.get();
    }

    /** Requests so far with this method whose path contains {@code fragment}, e.g. {@code ("PATCH", "/status")}. */
    public long requests(String method, String fragment) {
        return requests.stream().filter(request -> request.startsWith(method + " ") && request.contains(fragment)).count();
    }

    @Override
    public void close() {
        client.close();
        server.close();
    }

    private Optional<Failure> intercept(Request request) {
        requests.add(request.method() + " " + request.path());
        for (RequestInterceptor fault : faults) {
            Optional<Failure> failure = fault.intercept(request);
            if (failure.isPresent()) {
                return failure;
            }
        }
        podOfBinding(request).ifPresent(pod -> bindingRequests.computeIfAbsent(pod, key -> new AtomicInteger()).incrementAndGet());
        return Optional.empty();
    }

    private void create(CustomResourceDefinitions definition) {
        for (String crd : MANIFESTS.computeIfAbsent(definition, key -> read(client, key))) {
            client.resource(client.getKubernetesSerialization().unmarshal(crd, HasMetadata.class)).create();
        }
    }

    /** Each CRD of the manifests as JSON: a bridge's YAML (Kubeflow's is over a megabyte) is parsed once per test JVM. */
    private static List<String> read(KubernetesClient client, CustomResourceDefinitions definition) {
        try (InputStream in = definition.open()) {
            return client.load(in).items().stream().map(crd -> client.getKubernetesSerialization().asJson(crd)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The pod ({@code namespace/name}) of a {@code pods/NAME/binding} request. */
    private static Optional<String> podOfBinding(Request request) {
        Matcher binding = BINDING.matcher(request.pathWithoutQuery());
        return request.method().equals("POST") && binding.matches() ? Optional.of(binding.group(1) + "/" + binding.group(2)) : Optional.empty();
    }

    private static Failure injected(int code) {
        return Failure.of(code, "injected failure");
    }
}
