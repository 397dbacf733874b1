package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Server-side apply, side by side with a real kube-apiserver: fabric8's {@code serverSideApply()}
 * (what Spark 4.x cluster mode writes its ConfigMap, Service and PodGroup with) and
 * {@code kubectl apply --server-side} leave the same objects and the same managed fields, and
 * conflicts are reported alike.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ServerSideApplyRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void appliesByTwoManagersCreateUpdateRemoveAndConflictAsInKubeApiServer(RealControlPlane real) {
        Map<String, List<Object>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            List<Object> steps = new ArrayList<>();
            // given: one manager creates a ConfigMap of two keys
            steps.add(observe(apply(side.client(), configMap("data: {a: '1', b: '2'}"), "first", false)));
            // when: it drops a key, another manager adds one, then tries to change the first one's, then forces it
            steps.add(observe(apply(side.client(), configMap("data: {a: '1'}"), "first", false)));
            steps.add(observe(apply(side.client(), configMap("data: {c: '3'}"), "second", false)));
            steps.add(conflict(() -> apply(side.client(), configMap("data: {a: '9'}"), "second", false)));
            steps.add(observe(apply(side.client(), configMap("data: {a: '9', c: '3'}"), "second", true)));
            // then: the first manager no longer owns a, and dropping it from its config removes nothing of the second's
            steps.add(observe(apply(side.client(), configMap("data: {}"), "first", false)));
            observed.put(side.name(), steps);
        }
        // JSON objects compare field by field, in any order (kube-apiserver writes a struct's fields in Go's order)
        List<Object> embedded = observed.get(servers.embedded().name());
        assertThat(embedded.get(1).toString()).contains("\"data\":{\"a\":\"1\"}");
        assertThat(embedded.get(3).toString()).startsWith("409 Conflict").contains(".data.a");
        assertThat(embedded.get(5).toString()).contains("\"data\":{\"a\":\"9\",\"c\":\"3\"}");
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
    }

    @Test
    void serviceAndPodGroupAppliedWithForceAsSparkDoesMergeListsByTheirKeys(RealControlPlane real) {
        Map<String, List<Object>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            List<Object> steps = new ArrayList<>();
            steps.add(spec(apply(side.client(), service("[{name: http, port: 80, targetPort: 80, protocol: TCP}]"), "spark", true)));
            steps.add(spec(apply(side.client(), service("[{name: metrics, port: 81, targetPort: 81, protocol: TCP}]"), "other", true)));
            steps.add(spec(apply(side.client(), service("[{name: metrics, port: 81, targetPort: 81, protocol: TCP}]"), "spark", true)));
            steps.add(observe(apply(side.client(), podGroup(2), "spark", true)));
            steps.add(observe(apply(side.client(), podGroup(3), "spark", true)));
            observed.put(side.name(), steps);
        }
        List<Object> embedded = observed.get(servers.embedded().name());
        assertThat(embedded.get(1).toString()).contains("\"port\":80").contains("\"port\":81");
        assertThat(embedded.get(2).toString()).doesNotContain("\"port\":80");
        assertThat(embedded.get(4).toString()).contains("\"minMember\":3");
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
    }

    @Test
    void kubectlApplyServerSideChangesOneImageAndReportsAnotherManagersConflict(RealControlPlane real) throws InterruptedException {
        Map<String, List<String>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            List<String> steps = new ArrayList<>();
            steps.add(kubectl(side, pod("web:1"), "--server-side").output());
            steps.add(kubectl(side, pod("web:2"), "--server-side").output());
            TestingKubectl.Result conflict = kubectl(side, pod("web:3"), "--server-side", "--field-manager=intruder");
            steps.add(conflict.exitCode() + " " + conflict.output().lines().filter(line -> line.contains("conflict")).toList());
            steps.add(kubectl(side, pod("web:3"), "--server-side", "--field-manager=intruder", "--force-conflicts").output());
            JsonNode stored = JSON.valueToTree(side.client().pods().inNamespace("default").withName("applied").get());
            List<String> images = new ArrayList<>();
            stored.path("spec").path("containers").forEach(container -> images.add(container.path("name").asText() + "="
                    + container.path("image").asText() + " env=" + container.path("env")));
            steps.add(images.toString());
            steps.add(managers(stored).toString());
            observed.put(side.name(), steps);
        }
        List<String> embedded = observed.get(servers.embedded().name());
        assertThat(embedded.get(2)).startsWith("1 ").contains("conflict with \"kubectl\"");
        assertThat(embedded.get(4)).contains("web=web:3").contains("sidecar=proxy:1");
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
    }

    private static TestingKubectl.Result kubectl(Side side, String manifest, String... flags) throws InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("apply", "--validate=false", "-f", TestingServers.manifest(manifest).toString()));
        arguments.addAll(List.of(flags));
        return TestingKubectl.run(side.kubeconfig(), arguments.toArray(String[]::new));
    }

    private static GenericKubernetesResource apply(KubernetesClient client, String yaml, String manager, boolean force) {
        HasMetadata object = Serialization.unmarshal(yaml, GenericKubernetesResource.class);
        var applied = client.resource((GenericKubernetesResource) object).fieldManager(manager);
        return force ? applied.forceConflicts().serverSideApply() : applied.serverSideApply();
    }

    /** The object's content and its managers' fields, without what differs by server (uid, versions, times). */
    private static JsonNode observe(GenericKubernetesResource object) {
        ObjectNode tree = JSON.valueToTree(object);
        ObjectNode kept = JSON.createObjectNode();
        kept.set("data", tree.path("data"));
        kept.set("spec", tree.path("spec"));
        kept.set("managers", managers(tree));
        return kept;
    }

    private static JsonNode spec(GenericKubernetesResource service) {
        ObjectNode kept = JSON.createObjectNode();
        kept.set("ports", JSON.valueToTree(service).path("spec").path("ports"));
        kept.set("managers", managers(JSON.valueToTree(service)));
        return kept;
    }

    /**
     * The entries of the appliers, by manager, without their times: kube-apiserver orders entries by their
     * time in seconds, then by manager, so two servers' orders differ when their applies straddle a second.
     */
    private static ArrayNode managers(JsonNode object) {
        Map<String, JsonNode> byManager = new TreeMap<>();
        for (JsonNode entry : object.path("metadata").path("managedFields")) {
            if (entry.path("operation").asText().equals("Apply")) {
                byManager.put(entry.path("manager").asText(), JSON.createObjectNode().put("manager", entry.path("manager").asText())
                        .put("apiVersion", entry.path("apiVersion").asText()).set("fieldsV1", entry.path("fieldsV1")));
            }
        }
        return JSON.createArrayNode().addAll(byManager.values());
    }

    private static String conflict(Runnable apply) {
        try {
            apply.run();
            return "applied";
        } catch (KubernetesClientException e) {
            ArrayNode causes = JSON.valueToTree(e.getStatus().getDetails().getCauses());
            return e.getCode() + " " + e.getStatus().getReason() + " " + e.getStatus().getMessage() + " " + causes;
        }
    }

    private static String configMap(String data) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied, namespace: default}\n" + data + "\n";
    }

    private static String service(String ports) {
        return "apiVersion: v1\nkind: Service\nmetadata: {name: applied, namespace: default}\nspec: {type: ClusterIP, ports: " + ports + "}\n";
    }

    private static String podGroup(int minMember) {
        return """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: spark-app, namespace: default}
                spec: {minMember: %d, queue: default, minResources: {cpu: '2'}}
                """.formatted(minMember);
    }

    private static String pod(String image) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: applied, namespace: default, labels: {app: applied}}
                spec:
                  containers:
                  - name: web
                    image: %s
                    env: [{name: FEATURE, value: "on"}]
                  - name: sidecar
                    image: proxy:1
                """.formatted(image);
    }
}
