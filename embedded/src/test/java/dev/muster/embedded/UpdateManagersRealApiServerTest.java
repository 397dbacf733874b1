package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code Update} managers of {@code metadata.managedFields}, side by side with a real kube-apiserver:
 * a create, update or patch records its manager (the {@code fieldManager} kubectl sends, else the client's
 * User-Agent) with the fields it changed, and a server-side apply that changes one of those fields
 * conflicts with it, with kube-apiserver's message.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class UpdateManagersRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void serverSideApplyConflictsWithWhatKubectlCreateAndClientSideApplyWrote(RealControlPlane real) throws InterruptedException {
        Map<String, List<String>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            List<String> steps = new ArrayList<>();
            // given: one ConfigMap created, another applied client-side
            steps.add(kubectl(side, "create", "-f", configMap("created", "{a: '1', b: '2'}")));
            steps.add(kubectl(side, "apply", "-f", configMap("client-side", "{a: '1'}")));

            // when: server-side applies change their fields, without and with --force-conflicts
            steps.add(conflicts(side, "apply", "--server-side", "-f", configMap("created", "{a: '9'}")));
            steps.add(conflicts(side, "apply", "--server-side", "--field-manager=other", "-f", configMap("client-side", "{a: '2'}")));
            steps.add(kubectl(side, "apply", "--server-side", "--force-conflicts", "-f", configMap("created", "{a: '9'}")));
            // kubectl's own server-side apply takes over what its client-side apply set, and keeps the annotation up to date
            steps.add(kubectl(side, "apply", "--server-side", "-f", configMap("client-side", "{a: '5'}")));
            steps.add(side.client().configMaps().inNamespace("default").withName("client-side").get().getMetadata().getAnnotations().toString());

            // then: the conflicts and the managers left are kube-apiserver's
            steps.add(managers(JSON.valueToTree(side.client().configMaps().inNamespace("default").withName("created").get())).toString());
            steps.add(managers(JSON.valueToTree(side.client().configMaps().inNamespace("default").withName("client-side").get())).toString());
            observed.put(side.name(), steps);
        }
        List<String> embedded = observed.get(servers.embedded().name());
        assertThat(embedded.get(2)).startsWith("1 ").contains("conflict with \"kubectl-create\" using v1: .data.a");
        assertThat(embedded.get(3)).startsWith("1 ").contains("conflict with \"kubectl-client-side-apply\" using v1: .data.a");
        assertThat(embedded.get(5)).startsWith("0 ");
        assertThat(embedded.get(6)).contains("\"a\":\"5\"");
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
    }

    @Test
    void createsPatchesLabelsStatusWritesAndUpdatesRecordTheirManagersAsKubeApiServerDoes(RealControlPlane real)
            throws InterruptedException {
        Map<String, List<String>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            List<String> steps = new ArrayList<>();
            // a custom resource: created, patched (a field changed, one removed), labelled, its status written
            steps.add(kubectl(side, "create", "-f", TestingServers.manifest("""
                    apiVersion: scheduling.volcano.sh/v1beta1
                    kind: PodGroup
                    metadata: {name: recorded, namespace: default}
                    spec: {minMember: 2, queue: default, minResources: {cpu: '2'}}
                    """).toString()));
            steps.add(podGroupManagers(side));
            steps.add(kubectl(side, "patch", "podgroups.scheduling.volcano.sh", "recorded", "--type=merge", "-p",
                    "{\"spec\":{\"minMember\":3,\"minResources\":null}}"));
            steps.add(podGroupManagers(side));
            steps.add(kubectl(side, "label", "podgroups.scheduling.volcano.sh", "recorded", "tier=web"));
            steps.add(podGroupManagers(side));
            // its CRD declares no status subresource: kube-apiserver answers the object is not found
            steps.add(kubectl(side, "patch", "podgroups.scheduling.volcano.sh", "recorded", "--subresource=status", "--type=merge", "-p",
                    "{\"status\":{\"phase\":\"Pending\"}}"));

            // a custom resource with a status subresource: its status written by one manager, then by another
            steps.add(kubectl(side, "create", "-f", TestingServers.manifest("""
                    apiVersion: scheduling.volcano.sh/v1beta1
                    kind: Queue
                    metadata: {name: recorded}
                    spec: {weight: 1, reclaimable: true, dequeueStrategy: traverse}
                    """).toString()));
            steps.add(kubectl(side, "patch", "queues.scheduling.volcano.sh", "recorded", "--subresource=status", "--type=merge", "-p",
                    "{\"status\":{\"state\":\"Open\",\"running\":1}}"));
            steps.add(kubectl(side, "patch", "queues.scheduling.volcano.sh", "recorded", "--subresource=status", "--type=merge", "-p",
                    "{\"status\":{\"running\":2}}", "--field-manager=muster"));
            GenericKubernetesResource queue = side.client().genericKubernetesResources("scheduling.volcano.sh/v1beta1", "Queue")
                    .withName("recorded").get();
            steps.add(managers(JSON.valueToTree(queue)).toString());

            // a built-in kind: created by kubectl, updated by fabric8 (its manager is its User-Agent's), then unchanged
            steps.add(kubectl(side, "create", "configmap", "updated", "--from-literal=a=1"));
            ConfigMap map = side.client().configMaps().inNamespace("default").withName("updated").get();
            map.getData().put("b", "2");
            side.client().configMaps().inNamespace("default").resource(map).update();
            steps.add(managers(JSON.valueToTree(side.client().configMaps().inNamespace("default").withName("updated").get())).toString());
            steps.add(kubectl(side, "label", "configmap", "updated", "tier=web", "--overwrite"));
            steps.add(kubectl(side, "label", "configmap", "updated", "tier=web", "--overwrite"));
            steps.add(managers(JSON.valueToTree(side.client().configMaps().inNamespace("default").withName("updated").get())).toString());
            observed.put(side.name(), steps);
        }
        List<String> embedded = observed.get(servers.embedded().name());
        assertThat(embedded.get(1)).contains("kubectl-create").contains("\"f:minMember\":{}");
        assertThat(embedded.get(3)).contains("kubectl-patch").doesNotContain("f:minResources");
        assertThat(embedded.get(5)).contains("kubectl-label");
        assertThat(embedded.get(6)).startsWith("1 ").contains("podgroups.scheduling.volcano.sh \"recorded\" not found");
        assertThat(embedded.get(10)).contains("\"manager\":\"muster\"").contains("\"subresource\":\"status\"").contains("f:state");
        assertThat(embedded.get(12)).contains("fabric8-kubernetes-client");
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
    }

    private static String podGroupManagers(Side side) {
        GenericKubernetesResource podGroup = side.client().genericKubernetesResources("scheduling.volcano.sh/v1beta1", "PodGroup")
                .inNamespace("default").withName("recorded").get();
        return managers(JSON.valueToTree(podGroup)).toString();
    }

    /** Every entry with its time replaced, in an order that does not hang on the second each write fell in. */
    private static ArrayNode managers(JsonNode object) {
        List<ObjectNode> entries = new ArrayList<>();
        for (JsonNode entry : object.path("metadata").path("managedFields")) {
            ObjectNode copy = entry.deepCopy();
            if (copy.path("time").isTextual()) {
                copy.put("time", "TIME");
            }
            entries.add(copy);
        }
        entries.sort(Comparator.comparing((ObjectNode entry) -> entry.path("operation").asText())
                .thenComparing(entry -> entry.path("manager").asText()).thenComparing(entry -> entry.path("subresource").asText()));
        return JSON.createArrayNode().addAll(entries);
    }

    private static String configMap(String name, String data) {
        return TestingServers.manifest("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + ", namespace: default}\ndata: " + data + "\n")
                .toString();
    }

    private static String kubectl(Side side, String... arguments) throws InterruptedException {
        TestingKubectl.Result result = TestingKubectl.run(side.kubeconfig(), arguments);
        return result.exitCode() + " " + result.output();
    }

    private static String conflicts(Side side, String... arguments) throws InterruptedException {
        TestingKubectl.Result result = TestingKubectl.run(side.kubeconfig(), arguments);
        return result.exitCode() + " " + result.output().lines().filter(line -> line.contains("conflict")).toList();
    }
}
