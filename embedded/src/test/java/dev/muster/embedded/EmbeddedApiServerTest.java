package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded API server answers as kube-apiserver does where the CRUD mock does not. */
class EmbeddedApiServerTest {
    private static EmbeddedApiServer server;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void aBindingSetsTheNodeOnceAndASecondBindingConflicts() throws Exception {
        // given
        client.resource(pod("bound-once")).create();

        // when
        int first = post("/api/v1/namespaces/default/pods/bound-once/binding", binding("bound-once", "node-1"));
        int second = post("/api/v1/namespaces/default/pods/bound-once/binding", binding("bound-once", "node-2"));

        // then
        assertThat(first).isEqualTo(201);
        assertThat(second).isEqualTo(409);
        assertThat(client.pods().withName("bound-once").get().getSpec().getNodeName()).isEqualTo("node-1");
    }

    @Test
    void aBindingThroughEitherPathRecordsNoManagerOnThePodAsInKubeApiServer() throws Exception {
        // given: pods created by the client, whose create is their only managedFields entry
        client.resource(pod("bound-by-subresource")).create();
        client.resource(pod("bound-by-collection")).create();

        // when
        post("/api/v1/namespaces/default/pods/bound-by-subresource/binding", binding("bound-by-subresource", "node-1"));
        post("/api/v1/namespaces/default/bindings", binding("bound-by-collection", "node-1"));

        // then
        for (String name : List.of("bound-by-subresource", "bound-by-collection")) {
            Pod bound = client.pods().withName(name).get();
            assertThat(bound.getSpec().getNodeName()).isEqualTo("node-1");
            assertThat(bound.getMetadata().getManagedFields()).extracting(entry -> entry.getManager() + " " + entry.getOperation())
                    .containsExactly("fabric8-kubernetes-client Update");
        }
    }

    @Test
    void theKubeconfigReplacesAnOldOneWholeAndLeavesNothingBeside(@TempDir Path folder) throws Exception {
        // given: a kubeconfig of an earlier run
        Path kubeconfig = folder.resolve("kube").resolve("config");
        Files.createDirectories(kubeconfig.getParent());
        Files.writeString(kubeconfig, "current-context: an-earlier-run\n", StandardCharsets.UTF_8);

        // when
        server.writeKubeconfig(kubeconfig);

        // then: only the new one is there, and kubectl's reader reaches this server through it
        try (Stream<Path> files = Files.list(kubeconfig.getParent())) {
            assertThat(files).containsExactly(kubeconfig);
        }
        Config config = Config.fromKubeconfig(Files.readString(kubeconfig, StandardCharsets.UTF_8));
        assertThat(config.getCurrentContext().getName()).isEqualTo("muster");
        assertThat(config.getMasterUrl()).startsWith(server.url());
    }

    @Test
    void aBindingOfAPodThatDoesNotExistIsNotFound() throws Exception {
        assertThat(post("/api/v1/namespaces/default/pods/nobody/binding", binding("nobody", "node-1"))).isEqualTo(404);
    }

    @Test
    void aMergePatchReplacesListsAndRemovesNulls() {
        // given
        client.resource(pod("patched")).create();
        String status = """
                {"status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}}""";

        // when: the same status twice, then a null
        client.pods().withName("patched").subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), status);
        client.pods().withName("patched").subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), status);
        client.pods().withName("patched").patch(PatchContext.of(PatchType.JSON_MERGE), """
                {"metadata": {"labels": {"a": "1", "b": "2"}}}""");
        client.pods().withName("patched").patch(PatchContext.of(PatchType.JSON_MERGE), """
                {"metadata": {"labels": {"a": null}}}""");

        // then
        Pod pod = client.pods().withName("patched").get();
        assertThat(pod.getStatus().getConditions()).hasSize(1);
        assertThat(pod.getMetadata().getLabels()).containsOnlyKeys("b");
    }

    @Test
    void theGenerationMovesWhenTheSpecChangesAndNotForMetadataOrStatusAndTheVersionOnlyOnAChange() throws Exception {
        // given
        client.resource(pod("generations")).create();
        long created = generation("generations");

        // when: a label, a status, a spec change, then a binding (which kube-apiserver writes without moving the generation)
        client.pods().withName("generations").patch(PatchContext.of(PatchType.JSON_MERGE), """
                {"metadata": {"labels": {"a": "1"}}}""");
        client.pods().withName("generations").subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), """
                {"status": {"phase": "Pending"}}""");
        long afterMetadataAndStatus = generation("generations");
        String version = client.pods().withName("generations").get().getMetadata().getResourceVersion();
        client.pods().withName("generations").patch(PatchContext.of(PatchType.JSON_MERGE), """
                {"metadata": {"labels": {"a": "1"}}}""");
        String afterNoChange = client.pods().withName("generations").get().getMetadata().getResourceVersion();
        client.pods().withName("generations").patch(PatchContext.of(PatchType.JSON_MERGE), """
                {"spec": {"activeDeadlineSeconds": 60}}""");
        long afterSpec = generation("generations");
        post("/api/v1/namespaces/default/pods/generations/binding", binding("generations", "node-1"));

        // then
        assertThat(afterMetadataAndStatus).isEqualTo(created);
        assertThat(afterSpec).isEqualTo(created + 1);
        assertThat(generation("generations")).as("a binding keeps the generation").isEqualTo(afterSpec);
        assertThat(client.pods().withName("generations").get().getSpec().getNodeName()).isEqualTo("node-1");
        assertThat(afterNoChange).as("a patch that changes nothing keeps the version").isEqualTo(version);
        assertThat(client.pods().withName("generations").get().getMetadata().getResourceVersion()).isNotEqualTo(version);
    }

    private long generation(String pod) {
        Long generation = client.pods().withName(pod).get().getMetadata().getGeneration();
        return generation == null ? 0 : generation;
    }

    @Test
    void aWatchFromAListsVersionGetsOnlyWhatChangedAfterTheListAndOneWithoutAVersionGetsEverything() throws Exception {
        // given: one pod listed, one created after the list
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("watched").endMetadata().build()).create();
        client.pods().inNamespace("watched").resource(pod("listed")).create();
        String listed = client.pods().inNamespace("watched").list().getMetadata().getResourceVersion();
        client.pods().inNamespace("watched").resource(pod("after-the-list")).create();

        // when
        List<String> fromTheList = watchedNames(new ListOptionsBuilder().withResourceVersion(listed).build());
        List<String> fromNothing = watchedNames(new ListOptionsBuilder().build());

        // then
        assertThat(fromTheList).containsExactly("ADDED after-the-list");
        assertThat(fromNothing).containsExactlyInAnyOrder("ADDED listed", "ADDED after-the-list");
    }

    @Test
    void aWatchFromAVersionThisServerNeverGaveIsGoneSoTheClientListsAgain() throws Exception {
        // given: a version far beyond this server's, as a client of an earlier server on the same address holds
        CompletableFuture<WatcherException> closed = new CompletableFuture<>();

        // when
        try (Watch watch = client.pods().inNamespace("default").watch(new ListOptionsBuilder().withResourceVersion("999999999").build(),
                new Watcher<Pod>() {
                    @Override
                    public void eventReceived(Action action, Pod pod) {}

                    @Override
                    public void onClose(WatcherException cause) {
                        closed.complete(cause);
                    }
                })) {
            // then
            WatcherException cause = closed.get(30, TimeUnit.SECONDS);
            assertThat(cause.isHttpGone()).isTrue();
        }
    }

    /** The events a watch of namespace "watched" gets until a marker pod is created after it opened; earlier markers left out. */
    private List<String> watchedNames(ListOptions options) throws InterruptedException {
        List<String> events = new CopyOnWriteArrayList<>();
        CountDownLatch marked = new CountDownLatch(1);
        String marker = "marker-" + UUID.randomUUID().toString().substring(0, 8);
        try (Watch watch = client.pods().inNamespace("watched").watch(options, new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                if (pod.getMetadata().getName().equals(marker)) {
                    marked.countDown();
                } else if (!pod.getMetadata().getName().startsWith("marker-")) {
                    events.add(action + " " + pod.getMetadata().getName());
                }
            }

            @Override
            public void onClose(WatcherException cause) {}
        })) {
            client.pods().inNamespace("watched").resource(pod(marker)).create();
            assertThat(marked.await(30, TimeUnit.SECONDS)).isTrue();
        }
        return events;
    }

    @Test
    void creatingAnObjectThatExistsConflicts() {
        client.resource(pod("twice")).create();

        assertThatThrownBy(() -> client.resource(pod("twice")).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    }

    @Test
    void volcanosCustomResourcesAreServedAndDiscoverable() throws Exception {
        assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems())
                .extracting(crd -> crd.getMetadata().getName())
                .contains("podgroups.scheduling.volcano.sh", "queues.scheduling.volcano.sh", "hypernodes.topology.volcano.sh");
        assertThat(get("/apis", "application/json")).contains("\"scheduling.volcano.sh\"", "\"topology.volcano.sh\"");
        assertThat(get("/apis/scheduling.volcano.sh/v1beta1", "application/json")).contains("\"podgroups\"", "\"verbs\"");
    }

    @Test
    void kubectlsTableOfPodsHasTheNode() throws Exception {
        // given
        client.resource(pod("in-a-table")).create();
        post("/api/v1/namespaces/default/pods/in-a-table/binding", binding("in-a-table", "node-7"));

        // when
        String table = get("/api/v1/namespaces/default/pods/in-a-table", "application/json;as=Table;v=v1;g=meta.k8s.io");

        // then
        assertThat(table).contains("\"kind\":\"Table\"", "\"name\":\"Node\"", "\"node-7\"");
    }

    private static Pod pod(String name) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withNewSpec().withSchedulerName("muster").addNewContainer().withName("main").withImage("busybox").endContainer().endSpec()
                .build();
    }

    private static String binding(String pod, String node) {
        return """
                {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "%s", "namespace": "default"},
                 "target": {"apiVersion": "v1", "kind": "Node", "name": "%s"}}""".formatted(pod, node);
    }

    private static int post(String path, String body) throws Exception {
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder().uri(URI.create(server.url() + path))
                .post("application/json", body).build();
        return client.getHttpClient().sendAsync(request, String.class).get().code();
    }

    private static String get(String path, String accept) throws Exception {
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder().uri(URI.create(server.url() + path))
                .header("Accept", accept).build();
        HttpResponse<String> response = client.getHttpClient().sendAsync(request, String.class).get();
        assertThat(response.code()).isEqualTo(200);
        return response.body();
    }
}
