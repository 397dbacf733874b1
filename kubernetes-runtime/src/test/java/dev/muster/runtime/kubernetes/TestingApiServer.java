package dev.muster.runtime.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The fabric8 CRUD mock as an API server for tests, with Binding and Eviction applied, Volcano's
 * CRDs' status subresources, a count of Binding requests per pod, and faults to inject.
 */
public final class TestingApiServer implements AutoCloseable {
    private final List<Function<RecordedRequest, Optional<MockResponse>>> faults = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> bindingRequests = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final KubernetesMockServer server;
    private final KubernetesClient client;

    public TestingApiServer() {
        List<CustomResourceDefinitionContext> crds = List.of(
                // as Volcano's CRDs: a status subresource for Queues and HyperNodes, none for PodGroups
                crd("scheduling.volcano.sh", "v1beta1", "PodGroup", "podgroups", true, false),
                crd("scheduling.volcano.sh", "v1beta1", "Queue", "queues", false, true),
                crd("scheduling.x-k8s.io", "v1alpha1", "PodGroup", "podgroups", true, true),
                crd("topology.volcano.sh", "v1alpha1", "HyperNode", "hypernodes", false, true));
        BindingAwareCrudDispatcher dispatcher = new BindingAwareCrudDispatcher(crds) {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                requests.add(request.getMethod().toUpperCase(java.util.Locale.ROOT) + " " + request.getPath());
                for (Function<RecordedRequest, Optional<MockResponse>> fault : faults) {
                    Optional<MockResponse> response = fault.apply(request);
                    if (response.isPresent()) {
                        return response.get();
                    }
                }
                if ("POST".equalsIgnoreCase(request.getMethod()) && request.getPath().endsWith("/binding")) {
                    bindingRequests.computeIfAbsent(podOf(request.getPath()), key -> new AtomicInteger()).incrementAndGet();
                }
                return super.dispatch(request);
            }
        };
        this.server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init();
        this.client = newClient();
    }

    public KubernetesClient client() {
        return client;
    }

    /**
     * A new client, as a restarted scheduler would have. Like {@code muster run}'s, it does not retry
     * failed requests itself: Muster's {@code RetryPolicy} is the one retry layer.
     */
    public KubernetesClient newClient() {
        Config config;
        try (KubernetesClient plain = server.createClient()) {
            config = new ConfigBuilder(plain.getConfiguration()).withRequestRetryBackoffLimit(0).build();
        }
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /** Answers {@code code} to the next {@code times} Binding requests for this pod ({@code namespace/name}). */
    public void failBindings(String pod, int code, int times) {
        AtomicInteger left = new AtomicInteger(times);
        faults.add(request -> "POST".equalsIgnoreCase(request.getMethod()) && request.getPath().endsWith("/binding")
                        && podOf(request.getPath()).equals(pod) && left.getAndDecrement() > 0
                ? Optional.of(BindingAwareCrudDispatcher.status(code, "Injected", "injected failure"))
                : Optional.empty());
    }

    /** Answers {@code code} to every request whose path contains {@code fragment}, until {@link #clearFaults()}. */
    public void fail(String fragment, int code) {
        faults.add(request -> request.getPath().contains(fragment)
                ? Optional.of(BindingAwareCrudDispatcher.status(code, "Injected", "injected failure"))
                : Optional.empty());
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
        server.destroy();
    }

    private static String podOf(String path) {
        String[] parts = path.split("/");
        // /api/v1/namespaces/{ns}/pods/{name}/binding
        return parts[4] + "/" + parts[6];
    }

    private static CustomResourceDefinitionContext crd(String group, String version, String kind, String plural, boolean namespaced,
            boolean statusSubresource) {
        return new CustomResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(version)
                .withKind(kind)
                .withPlural(plural)
                .withScope(namespaced ? "Namespaced" : "Cluster")
                .withStatusSubresource(statusSubresource)
                .build();
    }
}
