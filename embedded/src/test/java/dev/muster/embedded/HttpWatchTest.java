package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Watches over plain HTTP, as kube-apiserver serves them to clients that do not upgrade to WebSocket. */
class HttpWatchTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static EmbeddedApiServer server;
    private static KubernetesClient client;
    private static HttpClient http;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
        http = TestingHttp.builder(server).version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void aWatchIsAChunkedStreamOfJsonEventsOnePerLineForAnyTrueValueOfWatch() {
        // given
        namespace("chunked");
        client.pods().inNamespace("chunked").resource(pod("stored")).create();

        // when: "1" is true to Go's strconv.ParseBool, which kube-apiserver reads the parameter with
        try (Stream watch = watch("/api/v1/namespaces/chunked/pods?watch=1", "application/json")) {
            await().atMost(PATIENCE).until(() -> watch.lines().size() == 1);
            client.pods().inNamespace("chunked").resource(pod("created")).create();

            // then
            await().atMost(PATIENCE).until(() -> watch.lines().size() == 2);
            assertThat(watch.response().statusCode()).isEqualTo(200);
            assertThat(watch.response().headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(watch.response().headers().firstValue("Transfer-Encoding")).hasValue("chunked");
            assertThat(watch.events()).extracting(HttpWatchTest::describe).containsExactly("ADDED Pod stored", "ADDED Pod created");
        }
    }

    @Test
    void aWatchFromAListsVersionGetsOnlyLaterChanges() {
        // given
        namespace("versioned");
        client.pods().inNamespace("versioned").resource(pod("listed")).create();
        String version = client.pods().inNamespace("versioned").list().getMetadata().getResourceVersion();
        client.pods().inNamespace("versioned").resource(pod("after-the-list")).create();

        // when
        try (Stream watch = watch("/api/v1/namespaces/versioned/pods?watch=true&resourceVersion=" + version, "application/json")) {
            client.pods().inNamespace("versioned").withName("listed").delete();

            // then
            await().atMost(PATIENCE).until(() -> watch.lines().size() == 2);
            assertThat(watch.events()).extracting(HttpWatchTest::describe).containsExactly("ADDED Pod after-the-list", "DELETED Pod listed");
        }
    }

    @Test
    void aWatchFromAVersionThisServerNeverGaveEndsWithAnErrorEventGone() {
        try (Stream watch = watch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=999999999", "application/json")) {
            await().atMost(PATIENCE).until(watch::ended);

            JsonNode event = watch.events().get(0);
            assertThat(watch.lines()).hasSize(1);
            assertThat(event.path("type").asText()).isEqualTo("ERROR");
            assertThat(event.path("object").path("kind").asText()).isEqualTo("Status");
            assertThat(event.path("object").path("code").asInt()).isEqualTo(410);
            assertThat(event.path("object").path("reason").asText()).isEqualTo("Expired");
        }
    }

    @Test
    void aWatchEndsAtItsTimeoutWithABookmarkBeforeItWhenAskedFor() {
        // given
        namespace("bookmarked");
        String version = client.pods().inNamespace("bookmarked").list().getMetadata().getResourceVersion();

        // when: kube-apiserver sends a bookmark 2 s before the deadline
        try (Stream withBookmarks = watch("/api/v1/namespaces/bookmarked/pods?watch=true&timeoutSeconds=3&allowWatchBookmarks=true"
                + "&resourceVersion=" + version, "application/json");
                Stream without = watch("/api/v1/namespaces/bookmarked/pods?watch=true&timeoutSeconds=3&resourceVersion=" + version,
                        "application/json")) {
            await().atMost(PATIENCE).until(() -> withBookmarks.ended() && without.ended());

            // then
            assertThat(without.lines()).isEmpty();
            assertThat(withBookmarks.events()).hasSize(1);
            JsonNode bookmark = withBookmarks.events().get(0);
            assertThat(describe(bookmark)).isEqualTo("BOOKMARK Pod ");
            assertThat(bookmark.path("object").path("apiVersion").asText()).isEqualTo("v1");
            assertThat(Long.parseLong(bookmark.path("object").path("metadata").path("resourceVersion").asText()))
                    .isGreaterThan(Long.parseLong(version));
        }
    }

    @Test
    void aWatchWithAFieldSelectorOnTheNameGetsThatObjectOnly() {
        // given
        namespace("named");

        // when
        try (Stream watch = watch("/api/v1/namespaces/named/pods?watch=true&fieldSelector=metadata.name%3Dchosen", "application/json")) {
            client.pods().inNamespace("named").resource(pod("other")).create();
            client.pods().inNamespace("named").resource(pod("chosen")).create();

            // then
            await().atMost(PATIENCE).until(() -> !watch.lines().isEmpty());
            assertThat(watch.events()).extracting(HttpWatchTest::describe).containsExactly("ADDED Pod chosen");
        }
    }

    @Test
    void aWatchWithAFieldSelectorSeesAPodEnterTheSelectionWhenItIsBound() throws Exception {
        // given
        namespace("bound");
        client.pods().inNamespace("bound").resource(pod("elsewhere")).create();
        client.pods().inNamespace("bound").resource(pod("arriving")).create();

        // when
        try (Stream watch = watch("/api/v1/namespaces/bound/pods?watch=true&fieldSelector=spec.nodeName%3Dnode-9", "application/json")) {
            bind("bound", "elsewhere", "node-8");
            bind("bound", "arriving", "node-9");

            // then: kube-apiserver's watch cache sends an object that comes to match as ADDED
            await().atMost(PATIENCE).until(() -> !watch.lines().isEmpty());
            assertThat(watch.events()).extracting(HttpWatchTest::describe).containsExactly("ADDED Pod arriving");
        }
    }

    @Test
    void aWatchWithAMalformedSelectorIsABadRequest() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/default/pods?watch=true&labelSelector="
                + "app%20in%20(x")).build();

        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"reason\":\"BadRequest\"", "unable to parse requirement");
    }

    private static void bind(String namespace, String pod, String node) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/" + namespace + "/pods/" + pod + "/binding"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "%s"}, "target": {"kind": "Node", "name": "%s"}}"""
                        .formatted(pod, node))).build();
        assertThat(http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(201);
    }

    @Test
    void aWatchAskedForTablesSendsTableRowsWithTheColumnsInTheFirstEventOnly() {
        // given
        namespace("tabled");
        client.pods().inNamespace("tabled").resource(pod("one")).create();
        client.pods().inNamespace("tabled").resource(pod("two")).create();

        // when
        try (Stream watch = watch("/api/v1/namespaces/tabled/pods?watch=true", "application/json;as=Table;v=v1;g=meta.k8s.io")) {
            await().atMost(PATIENCE).until(() -> watch.lines().size() == 2);

            // then
            List<JsonNode> events = watch.events();
            assertThat(events).extracting(event -> event.path("object").path("kind").asText()).containsExactly("Table", "Table");
            assertThat(events.get(0).path("object").path("columnDefinitions").size()).isGreaterThan(1);
            assertThat(events.get(1).path("object").path("columnDefinitions").isNull()).isTrue();
            assertThat(events).extracting(event -> event.path("object").path("rows").get(0).path("cells").get(0).asText())
                    .containsExactlyInAnyOrder("one", "two");
        }
    }

    private static String describe(JsonNode event) {
        JsonNode object = event.path("object");
        return event.path("type").asText() + " " + object.path("kind").asText() + " " + object.path("metadata").path("name").asText();
    }

    private static Stream watch(String path, String accept) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + path)).header("Accept", accept).build();
        try {
            HttpResponse<java.util.stream.Stream<String>> response = http.send(request, HttpResponse.BodyHandlers.ofLines());
            return new Stream(response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The lines of one watch response as they arrive, read by a thread of its own. */
    private static final class Stream implements AutoCloseable {
        private final HttpResponse<java.util.stream.Stream<String>> response;
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private final AtomicBoolean ended = new AtomicBoolean();

        Stream(HttpResponse<java.util.stream.Stream<String>> response) {
            this.response = response;
            Thread reader = new Thread(() -> {
                try {
                    response.body().forEach(lines::add);
                } catch (UncheckedIOException e) {
                    // closed by the test
                }
                ended.set(true);
            }, "watch-reader");
            reader.setDaemon(true);
            reader.start();
        }

        HttpResponse<java.util.stream.Stream<String>> response() {
            return response;
        }

        List<String> lines() {
            return List.copyOf(lines);
        }

        List<JsonNode> events() {
            return lines.stream().map(line -> {
                try {
                    return JSON.readTree(line);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        }

        boolean ended() {
            return ended.get();
        }

        @Override
        public void close() {
            response.body().close();
        }
    }

    private static void namespace(String name) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
    }

    private static Pod pod(String name) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec()
                .build();
    }
}
