package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Namespaces, side by side with a real kube-apiserver: a namespaced object is refused in a namespace
 * that does not exist, as kube-apiserver's namespace lifecycle admission refuses it; and deleting a
 * namespace deletes what is in it (on the embedded server only: the real control plane of the tests
 * runs no namespace controller, see peers/README.md).
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class NamespaceRealApiServerTest {
    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void anObjectInANamespaceThatDoesNotExistIsRefusedAsKubeApiServerRefusesIt(RealControlPlane real) {
        Map<String, List<String>> answers = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            List<String> refusals = new ArrayList<>();
            refusals.add(refusal(() -> side.client().configMaps().inNamespace("nowhere").resource(new ConfigMapBuilder()
                    .withNewMetadata().withName("orphan").endMetadata().addToData("a", "1").build()).create()));
            refusals.add(refusal(() -> side.client().resource(Serialization.unmarshal("""
                    apiVersion: scheduling.volcano.sh/v1beta1
                    kind: PodGroup
                    metadata: {name: orphan, namespace: nowhere}
                    spec: {minMember: 1}
                    """, GenericKubernetesResource.class)).create()));
            refusals.add(refusal(() -> side.client().resource(Serialization.unmarshal("""
                    apiVersion: v1
                    kind: ConfigMap
                    metadata: {name: orphan, namespace: nowhere}
                    """, GenericKubernetesResource.class)).fieldManager("applier").serverSideApply()));
            answers.put(side.name(), refusals);
        }
        List<String> embedded = answers.get(servers.embedded().name());
        assertThat(embedded).allSatisfy(refusal -> assertThat(refusal).isEqualTo("404 NotFound namespaces \"nowhere\" not found"));
        assertThat(embedded).isEqualTo(answers.get(TestingServers.real(real).name()));
    }

    @Test
    void deletingANamespaceDeletesWhatIsInItAndNothingElse() {
        // given
        var client = servers.embedded().client();
        TestingNamespaces.create(client, "doomed-team", "other-team");
        for (String namespace : List.of("doomed-team", "other-team")) {
            client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata().withName("settings").endMetadata()
                    .build()).create();
            client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName("worker").endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withImage("busybox:1").endContainer().endSpec().build()).create();
        }

        // when
        client.namespaces().withName("doomed-team").delete();

        // then
        assertThat(client.namespaces().withName("doomed-team").get()).isNull();
        assertThat(client.configMaps().inNamespace("doomed-team").list().getItems()).isEmpty();
        assertThat(client.pods().inNamespace("doomed-team").list().getItems()).isEmpty();
        assertThat(client.configMaps().inNamespace("other-team").withName("settings").get()).isNotNull();
        assertThat(client.pods().inNamespace("other-team").withName("worker").get()).isNotNull();
    }

    private static String refusal(Runnable write) {
        try {
            write.run();
            return "accepted";
        } catch (KubernetesClientException e) {
            return e.getCode() + " " + e.getStatus().getReason() + " " + e.getStatus().getMessage();
        }
    }
}
