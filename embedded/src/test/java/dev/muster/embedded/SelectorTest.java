package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Label and field selectors select on lists and deletes as kube-apiserver's do, and bad ones are refused with its messages. */
class SelectorTest {
    @TempDir
    static Path folder;

    private static EmbeddedApiServer server;
    private static KubernetesClient client;
    private static Path kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
        kubeconfig = folder.resolve("kubeconfig");
        server.writeKubeconfig(kubeconfig);
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void aSetBasedSelectorListsOnlyWhatItSelects() {
        namespace("listed");
        client.pods().inNamespace("listed").resource(pod("x", "x")).create();
        client.pods().inNamespace("listed").resource(pod("y", "y")).create();
        client.pods().inNamespace("listed").resource(pod("unlabelled", null)).create();

        assertThat(names(client.pods().inNamespace("listed").withLabelIn("app", "x").list().getItems())).containsExactly("x");
        assertThat(names(client.pods().inNamespace("listed").withLabelNotIn("app", "x").list().getItems()))
                .containsExactlyInAnyOrder("y", "unlabelled");
        assertThat(names(client.pods().inNamespace("listed").withoutLabel("app").list().getItems())).containsExactly("unlabelled");
    }

    @Test
    void kubectlDeleteWithASetBasedSelectorDeletesOnlyWhatItSelects() throws Exception {
        namespace("doomed");
        client.pods().inNamespace("doomed").resource(pod("chosen", "x")).create();
        client.pods().inNamespace("doomed").resource(pod("spared", "y")).create();

        TestingKubectl.Result result = TestingKubectl.run(kubeconfig, "delete", "pods", "-n", "doomed", "-l", "app in (x)");

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(names(client.pods().inNamespace("doomed").list().getItems())).containsExactly("spared");
    }

    @Test
    void aCollectionDeleteWithASelectorDeletesOnlyWhatItSelects() {
        namespace("collected");
        client.pods().inNamespace("collected").resource(pod("chosen", "x")).create();
        client.pods().inNamespace("collected").resource(pod("spared", "y")).create();

        client.pods().inNamespace("collected").withLabelIn("app", "x").delete();

        assertThat(names(client.pods().inNamespace("collected").list().getItems())).containsExactly("spared");
    }

    @Test
    void podsAreSelectedByNodeAndPhase() throws Exception {
        namespace("placed");
        client.pods().inNamespace("placed").resource(pod("on-node", "x")).create();
        client.pods().inNamespace("placed").resource(pod("elsewhere", "x")).create();
        bind("placed", "on-node", "node-1");
        bind("placed", "elsewhere", "node-2");

        assertThat(names(client.pods().inNamespace("placed").withField("spec.nodeName", "node-1").list().getItems()))
                .containsExactly("on-node");
        assertThat(names(client.pods().inNamespace("placed").withoutField("spec.nodeName", "node-1").list().getItems()))
                .containsExactly("elsewhere");
        assertThat(client.pods().inNamespace("placed").withField("status.phase", "Running").list().getItems()).isEmpty();
    }

    @Test
    void aFieldTheKindDoesNotSupportIsABadRequestWithKubeApiserversMessage() throws Exception {
        HttpResponse<String> pods = get("/api/v1/namespaces/default/pods?fieldSelector=" + encode("spec.foo=x"));
        HttpResponse<String> configMaps = get("/api/v1/namespaces/default/configmaps?fieldSelector=" + encode("spec.foo=x"));
        HttpResponse<String> nodes = get("/api/v1/nodes?fieldSelector=" + encode("metadata.namespace=x"));

        assertThat(pods.code()).isEqualTo(400);
        assertThat(pods.body()).contains("\"reason\":\"BadRequest\"", "\"message\":\"field label not supported: spec.foo\"");
        assertThat(configMaps.code()).isEqualTo(400);
        assertThat(configMaps.body())
                .contains("\"message\":\"\\\"spec.foo\\\" is not a known field selector: only \\\"metadata.name\\\", \\\"metadata.namespace\\\"\"");
        assertThat(nodes.body()).contains("field label not supported: metadata.namespace");
    }

    @Test
    void aMalformedLabelSelectorIsABadRequestAndADeleteWithOneDeletesNothing() throws Exception {
        namespace("kept");
        client.pods().inNamespace("kept").resource(pod("kept", "x")).create();

        assertThatThrownBy(() -> client.pods().inNamespace("kept").withLabelSelector("app in (x").delete())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(400));
        HttpResponse<String> list = get("/api/v1/namespaces/kept/pods?labelSelector=" + encode("app in (x"));

        assertThat(list.code()).isEqualTo(400);
        assertThat(list.body()).contains("unable to parse requirement: found '', expected: ',' or ')'");
        assertThat(client.pods().inNamespace("kept").withName("kept").get()).isNotNull();
    }

    @Test
    void kubectlDescribeNodeShowsOnlyItsPodsAndDescribePodShowsItsEvents() throws Exception {
        // given
        namespace("described");
        client.resource(new NodeBuilder().withNewMetadata().withName("described-node").endMetadata().build()).create();
        client.pods().inNamespace("described").resource(pod("resident", "x")).create();
        client.pods().inNamespace("described").resource(pod("visitor", "x")).create();
        bind("described", "resident", "described-node");
        Pod resident = client.pods().inNamespace("described").withName("resident").get();
        client.v1().events().inNamespace("described").resource(new EventBuilder().withNewMetadata().withName("resident.1").endMetadata()
                .withNewInvolvedObject().withKind("Pod").withNamespace("described").withName("resident")
                .withUid(resident.getMetadata().getUid()).withApiVersion("v1").endInvolvedObject()
                .withReason("Scheduled").withMessage("placed by the test").withType("Normal").build()).create();
        client.v1().events().inNamespace("described").resource(new EventBuilder().withNewMetadata().withName("visitor.1").endMetadata()
                .withNewInvolvedObject().withKind("Pod").withNamespace("described").withName("visitor").endInvolvedObject()
                .withReason("Other").withMessage("about another pod").withType("Normal").build()).create();

        // when
        TestingKubectl.Result node = TestingKubectl.run(kubeconfig, "describe", "node", "described-node");
        TestingKubectl.Result pod = TestingKubectl.run(kubeconfig, "describe", "pod", "resident", "-n", "described");

        // then
        assertThat(node.output()).contains("Non-terminated Pods:", "resident").doesNotContain("visitor");
        assertThat(pod.output()).contains("placed by the test").doesNotContain("about another pod");
    }

    private static void bind(String namespace, String pod, String node) throws Exception {
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder()
                .uri(URI.create(server.url() + "/api/v1/namespaces/" + namespace + "/pods/" + pod + "/binding"))
                .post("application/json", """
                        {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "%s"}, "target": {"kind": "Node", "name": "%s"}}"""
                        .formatted(pod, node)).build();
        assertThat(client.getHttpClient().sendAsync(request, String.class).get().code()).isEqualTo(201);
    }

    private static HttpResponse<String> get(String path) throws Exception {
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder().uri(URI.create(server.url() + path)).build();
        return client.getHttpClient().sendAsync(request, String.class).get();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static java.util.List<String> names(java.util.List<Pod> pods) {
        return pods.stream().map(pod -> pod.getMetadata().getName()).toList();
    }

    private static void namespace(String name) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
    }

    private static Pod pod(String name, String app) {
        PodBuilder builder = new PodBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec();
        if (app != null) {
            builder.editMetadata().addToLabels("app", app).endMetadata();
        }
        return builder.build();
    }
}
