package dev.muster.runtime.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The test API server applies JSON merge patches as a real one does, which the plain CRUD mock does not. */
class TestingApiServerTest {
    private static final String POD_GROUP = "scheduling.volcano.sh/v1beta1 PodGroup";
    private static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("PodGroup").withPlural("podgroups")
            .withNamespaced(true).build();

    private final TestingApiServer server = new TestingApiServer();
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

    private void mergePatch(String name, String patch) {
        client.genericKubernetesResources(POD_GROUPS).inNamespace("default").withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }
}
