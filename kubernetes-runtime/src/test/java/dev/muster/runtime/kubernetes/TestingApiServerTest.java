package dev.muster.runtime.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.runtime.controller.CustomResourceDefinitions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The test API server: the embedded server's answers (JSON merge patches of a custom resource as
 * RFC 7386 says, which the callers' status writes rely on), its injected faults, its count of
 * Binding requests and its request log, and the CRDs it is given.
 */
class TestingApiServerTest {
    private static final String POD_GROUP = "scheduling.volcano.sh/v1beta1 PodGroup";
    private static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("PodGroup").withPlural("podgroups")
            .withNamespaced(true).build();
    private static final ResourceDefinitionContext WIDGETS = new ResourceDefinitionContext.Builder()
            .withGroup("example.com").withVersion("v1").withKind("Widget").withPlural("widgets").withNamespaced(true).build();

    private final TestingApiServer server = new TestingApiServer(
            new CustomResourceDefinitions(TestingApiServerTest.class, "/dev/muster/runtime/kubernetes/widgets-crd.yaml"));
    private final KubernetesClient client = server.client();

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void aMergePatchReplacesAListRatherThanAppendingToIt() {
        // given
        ClusterObjects.create(client, Manifests.podGroup("train", 2, "default"));
        String patch = """
                {"status": {"phase": "Pending", "conditions": [{"type": "Unschedulable", "status": "True", "message": "%s"}]}}""";

        // when: the same condition written twice, then a changed one
        mergePatch("train", patch.formatted("first"));
        mergePatch("train", patch.formatted("first"));
        mergePatch("train", patch.formatted("second"));

        // then
        GenericKubernetesResource stored = ClusterObjects.get(client, POD_GROUP, "default", "train");
        List<Map<String, Object>> conditions = stored.get("status", "conditions");
        assertThat(conditions).singleElement().satisfies(condition -> assertThat(condition).containsEntry("message", "second"));
        assertThat(stored.<Object>get("spec", "minMember")).isEqualTo(2);
    }

    @Test
    void aNullInAMergePatchRemovesItsKey() {
        // given
        ClusterObjects.create(client, Manifests.podGroup("train", 2, "default"));
        mergePatch("train", """
                {"status": {"phase": "Pending", "running": 0}}""");

        // when
        mergePatch("train", """
                {"status": {"running": null}}""");

        // then
        Map<String, Object> status = ClusterObjects.get(client, POD_GROUP, "default", "train").get("status");
        assertThat(status).containsExactly(Map.entry("phase", "Pending"));
    }

    @Test
    void injectedBindingFailuresAreAnsweredThatManyTimesAndOnlyTheBindingThatGetsThroughIsCounted() throws Exception {
        // given
        ClusterObjects.create(client, Manifests.pod("train-0", "train", "1"));
        server.failBindings("default/train-0", 503, 2);

        // when
        List<Integer> codes = new ArrayList<>();
        for (int attempt = 0; attempt < 3; attempt++) {
            codes.add(bind("train-0", "node-1"));
        }

        // then
        assertThat(codes).containsExactly(503, 503, 201);
        assertThat(server.bindingRequests("default/train-0")).isEqualTo(1);
        assertThat(client.pods().withName("train-0").get().getSpec().getNodeName()).isEqualTo("node-1");
    }

    @Test
    void aFaultOnAPathIsAnsweredWithItsCodeAndReasonUntilTheFaultsAreCleared() {
        // given
        server.fail("/configmaps", 403);

        // when / then
        assertThatThrownBy(() -> client.configMaps().list()).isInstanceOfSatisfying(KubernetesClientException.class, e -> {
            assertThat(e.getCode()).isEqualTo(403);
            assertThat(e.getStatus().getReason()).isEqualTo("Forbidden");
        });
        server.clearFaults();
        assertThat(client.configMaps().list().getItems()).isEmpty();
    }

    @Test
    void theGivenCrdsAreServedAndTheRequestLogHoldsOnlyWhatTheTestSent() {
        // when
        client.genericKubernetesResources(WIDGETS).inNamespace("default").resource(new GenericKubernetesResourceBuilder()
                .withApiVersion("example.com/v1").withKind("Widget").withNewMetadata().withName("w").endMetadata().build()).create();

        // then
        assertThat(client.genericKubernetesResources(WIDGETS).inNamespace("default").withName("w").get()).isNotNull();
        assertThat(server.requests("POST", "/customresourcedefinitions")).isZero();
        assertThat(server.requests("POST", "/widgets")).isEqualTo(1);
    }

    private void mergePatch(String name, String patch) {
        client.genericKubernetesResources(POD_GROUPS).inNamespace("default").withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    /** A Binding through {@code pods/NAME/binding}, as Muster's binder sends it; the answer's code. */
    private int bind(String pod, String node) throws Exception {
        String binding = """
                {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "%s"}, "target": {"kind": "Node", "name": "%s"}}"""
                .formatted(pod, node);
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder()
                .uri(client.getMasterUrl().toString().replaceAll("/+$", "") + "/api/v1/namespaces/default/pods/" + pod + "/binding")
                .post("application/json", binding).build();
        HttpResponse<String> response = client.getHttpClient().sendAsync(request, String.class).get();
        return response.code();
    }
}
