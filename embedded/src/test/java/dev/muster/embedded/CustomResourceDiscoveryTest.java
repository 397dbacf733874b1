package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A CRD created in the server appears in discovery, as kube-apiserver lists an established CRD, so kubectl finds its kind. */
class CustomResourceDiscoveryTest {
    private static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: widgets.example.muster.dev
            spec:
              group: example.muster.dev
              scope: Namespaced
              names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wdg]}
              versions:
              - name: v1
                served: true
                storage: true
                subresources: {status: {}}
                schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
            """;

    private final EmbeddedApiServer server = EmbeddedApiServer.start(0);
    private final KubernetesClient client = server.newClient();

    @TempDir
    Path directory;

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void kubectlFindsTheKindOfACreatedCrdByNameAndShortName() throws IOException, InterruptedException {
        // given
        Path kubeconfig = directory.resolve("kubeconfig");
        server.writeKubeconfig(kubeconfig);
        assertThat(TestingKubectl.run(kubeconfig, "get", "widgets").output()).contains("the server doesn't have a resource type \"widgets\"");

        // when
        client.apiextensions().v1().customResourceDefinitions().resource(Serialization.unmarshal(CRD, CustomResourceDefinition.class)).create();

        // then
        TestingKubectl.Result byName = TestingKubectl.run(kubeconfig, "get", "widgets");
        TestingKubectl.Result byShortName = TestingKubectl.run(kubeconfig, "get", "wdg");
        TestingKubectl.Result resources = TestingKubectl.run(kubeconfig, "api-resources", "--api-group=example.muster.dev");
        assertThat(byName.exitCode()).as(byName.output()).isZero();
        assertThat(byName.output()).contains("No resources found in default namespace.");
        assertThat(byShortName.exitCode()).as(byShortName.output()).isZero();
        assertThat(resources.output()).contains("widgets", "wdg", "example.muster.dev/v1", "Widget");
    }

    /**
     * A CRD serving two versions is one group in {@code /apis}, listing both, the preferred (GA before
     * beta before alpha) first, as kube-apiserver lists it; it was listed once per version, and the
     * preferred version was whichever came first in the CRD.
     */
    @Test
    void aGroupOfTwoVersionsIsListedOnceWithItsPreferredVersionFirst() throws IOException {
        client.apiextensions().v1().customResourceDefinitions().resource(Serialization.unmarshal(CRD.replace("""
                - name: v1
                  served: true
                  storage: true""".indent(2), """
                - name: v1alpha1
                  served: true
                  storage: false
                  schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                - name: v1
                  served: true
                  storage: true""".indent(2)), CustomResourceDefinition.class)).create();

        JsonNode groups = new ObjectMapper().readTree(client.raw("/apis")).path("groups");
        List<JsonNode> example = new ArrayList<>();
        groups.forEach(group -> {
            if (group.path("name").asText().equals("example.muster.dev")) {
                example.add(group);
            }
        });
        assertThat(example).hasSize(1);
        assertThat(example.get(0).path("versions").findValuesAsText("version")).containsExactly("v1", "v1alpha1");
        assertThat(example.get(0).path("preferredVersion").path("groupVersion").asText()).isEqualTo("example.muster.dev/v1");
        assertThat(GroupOrder.VERSIONS.compare("v2beta1", "v1beta2")).isNegative();
        assertThat(List.of("foo1", "v1alpha1", "v11alpha2", "v1beta1", "v1", "v2").stream().sorted(GroupOrder.VERSIONS).toList())
                .containsExactly("v2", "v1", "v1beta1", "v11alpha2", "v1alpha1", "foo1");
    }
}
