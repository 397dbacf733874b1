package dev.muster.peers;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@WithRealControlPlane(nodes = 2, nodeCpu = "4", nodeMemory = "16Gi")
class RealControlPlaneTest {
    private static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh")
            .withVersion("v1beta1")
            .withKind("PodGroup")
            .withPlural("podgroups")
            .withNamespaced(true)
            .build();

    @Test
    void servesTheKubernetesReleaseThatWasBuilt(KubernetesClient client) {
        assertThat(client.getKubernetesVersion().getGitVersion()).isEqualTo(RealControlPlane.KUBERNETES_VERSION);
    }

    @Test
    void registersReadyNodesWithTheirAllocatable(KubernetesClient client) {
        List<Node> nodes = client.nodes().list().getItems();

        assertThat(nodes).extracting(node -> node.getMetadata().getName()).containsExactlyInAnyOrder("node-0", "node-1");
        assertThat(nodes).allSatisfy(node -> {
            assertThat(node.getStatus().getAllocatable())
                    .containsEntry("cpu", new Quantity("4"))
                    .containsEntry("memory", new Quantity("16Gi"))
                    .containsEntry("pods", new Quantity("110"));
            assertThat(node.getStatus().getConditions())
                    .filteredOn(condition -> condition.getType().equals("Ready"))
                    .extracting(NodeCondition::getStatus)
                    .containsExactly("True");
            assertThat(node.getSpec().getTaints()).isEmpty();
        });
    }

    @Test
    void servesThePodGroupCrdWithItsSchemaDefaults(KubernetesClient client) {
        GenericKubernetesResource podGroup = podGroup("train", 3);

        client.genericKubernetesResources(POD_GROUPS).inNamespace("default").resource(podGroup).create();

        GenericKubernetesResource stored = client.genericKubernetesResources(POD_GROUPS).inNamespace("default").withName("train").get();
        assertThat(stored.<Integer>get("spec", "minMember")).isEqualTo(3);
        // the structural schema's default, applied by the API server itself
        assertThat(stored.<String>get("spec", "queue")).isEqualTo("default");
    }

    @Test
    void rejectsAPodGroupThatItsSchemaForbids(KubernetesClient client) {
        GenericKubernetesResource negative = podGroup("negative", -1);

        assertThatThrownBy(() -> client.genericKubernetesResources(POD_GROUPS).inNamespace("default").resource(negative).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getMessage()).contains("spec.minMember");
                });
    }

    @Test
    void refusesAUserThatNoBindingNamesUntilOneDoes(RealControlPlane controlPlane, KubernetesClient admin) {
        TokenUser user = controlPlane.unprivilegedUser();
        try (KubernetesClient unprivileged = controlPlane.newClient(user)) {
            assertThatThrownBy(() -> unprivileged.pods().inNamespace("default").list())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        // authenticated (not 401) but not authorized
                        assertThat(e.getCode()).isEqualTo(403);
                        assertThat(e.getMessage()).contains("User \"" + user.name() + "\" cannot list resource \"pods\"");
                    });

            // a Role of our own: the built-in "view" gets its rules from the aggregation controller of
            // kube-controller-manager, which does not run here
            admin.rbac().roles().inNamespace("default").resource(new RoleBuilder()
                    .withNewMetadata().withName("pod-reader").endMetadata()
                    .addNewRule().withApiGroups("").withResources("pods").withVerbs("get", "list").endRule()
                    .build()).create();
            admin.rbac().roleBindings().inNamespace("default").resource(new RoleBindingBuilder()
                    .withNewMetadata().withName("unprivileged-reads-pods").endMetadata()
                    .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName("pod-reader").endRoleRef()
                    .addNewSubject().withApiGroup("rbac.authorization.k8s.io").withKind("User").withName(user.name()).endSubject()
                    .build()).create();

            // RBAC reads bindings from an informer, so the grant takes effect shortly after
            await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptions()
                    .untilAsserted(() -> assertThat(unprivileged.pods().inNamespace("default").list().getItems()).isEmpty());
            assertThatThrownBy(() -> unprivileged.nodes().list())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
        }
    }

    @Test
    void writesAKubeconfigThatKubectlUses(RealControlPlane controlPlane) throws IOException, InterruptedException {
        Process kubectl = new ProcessBuilder("kubectl", "--kubeconfig", controlPlane.kubeconfig().toString(), "get", "nodes", "-o", "name")
                .redirectErrorStream(true)
                .start();

        assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(kubectl.getInputStream().readAllBytes(), UTF_8);
        assertThat(kubectl.exitValue()).as(output).isZero();
        assertThat(output.lines()).containsExactly("node/node-0", "node/node-1");
    }

    @Test
    void aPeerRestartedOnPurposeKeepsItsDataAndFailsNoTest(RealControlPlane controlPlane, KubernetesClient client) {
        // given
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
                .withNewMetadata().withName("survivor").endMetadata().addToData("kept", "yes").build()).create();
        long apiServerPid = controlPlane.processes().get(RealControlPlane.KUBE_APISERVER).pid();

        // when: kube-apiserver, then etcd, restarted
        controlPlane.restart(RealControlPlane.KUBE_APISERVER);
        controlPlane.stop(RealControlPlane.ETCD);
        assertThat(controlPlane.processes()).doesNotContainKey(RealControlPlane.ETCD);
        controlPlane.start(RealControlPlane.ETCD);

        // then: new processes, the same port and data, and no dead peer to report (the extension's afterEach checks it too)
        assertThat(controlPlane.processes().get(RealControlPlane.KUBE_APISERVER).pid()).isNotEqualTo(apiServerPid);
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
                assertThat(client.configMaps().inNamespace("default").withName("survivor").get().getData()).containsEntry("kept", "yes"));
        assertThat(controlPlane.deadPeerReports()).isEmpty();
        assertThatThrownBy(() -> controlPlane.start(RealControlPlane.ETCD)).hasMessage("etcd is running already");
    }

    private static GenericKubernetesResource podGroup(String name, int minMember) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("PodGroup")
                .withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("minMember", minMember)))
                .build();
    }
}
