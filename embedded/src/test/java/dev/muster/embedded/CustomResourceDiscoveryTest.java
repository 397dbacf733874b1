package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Path;
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
}
