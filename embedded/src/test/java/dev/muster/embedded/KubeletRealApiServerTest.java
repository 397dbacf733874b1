package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.engine.api.SchedulingApi;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The simulated kubelet's writes, side by side with a real kube-apiserver: the same code registers a
 * node, renews its Lease, binds and runs pods against both servers, and what a client reads back (the
 * Node, the Lease, the pods' status after the binding, while running and once ended) is the same,
 * so kube-apiserver accepts every field as written and adds nothing the embedded server leaves out.
 * And {@code pods/log}'s answers: where kube-apiserver answers itself, and where it asks the node's kubelet, which is
 * then the simulated kubelet's own API ({@link SimulatedKubelet#serveApi()}).
 */
@WithRealControlPlane(nodes = 0)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KubeletRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Instant START = Instant.parse("2026-12-02T01:00:00Z");
    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void aSimulatedNodeAndItsLeaseReadAsOnKubeApiServer(RealControlPlane real) {
        Map<String, List<JsonNode>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            TestingClock clock = new TestingClock(START);
            SimulatedNodes.create(side.client(), List.of(NodePool.parse("leased:1:cpu=4,memory=8Gi:zone=z1,instance-type=t1")), clock);
            NodeHeartbeats heartbeats = new NodeHeartbeats(side.client(), clock);
            heartbeats.start();
            try {
                await().atMost(WAIT).until(() -> heartbeats.node("leased-1").isPresent());
                List<JsonNode> steps = new ArrayList<>();
                heartbeats.beat();
                steps.add(node(side.client(), "leased-1"));
                steps.add(lease(side.client(), "leased-1"));
                clock.advance(NodeHeartbeats.STATUS_REPORT_INTERVAL);
                heartbeats.beat();
                steps.add(node(side.client(), "leased-1"));
                steps.add(lease(side.client(), "leased-1"));
                observed.put(side.name(), steps);
            } finally {
                heartbeats.stop();
            }
        }
        List<JsonNode> embedded = observed.get(servers.embedded().name());
        assertThat(embedded.get(2).path("status").path("conditions").path(3).path("lastHeartbeatTime").asText()).isEqualTo("2026-12-02T01:05:00Z");
        assertThat(embedded.get(3).path("spec").path("renewTime").asText()).startsWith("2026-12-02T01:05:00");
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
    }

    @Test
    void podsBoundRunAndEndWithTheStatusKubeApiServerStores(RealControlPlane real) {
        Map<String, List<JsonNode>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            KubernetesClient client = side.client();
            SimulatedNodes.create(client, List.of(NodePool.parse("running:1:cpu=4,memory=8Gi")), new TestingClock(START));
            SimulatedKubelet kubelet = new SimulatedKubelet(client, new TestingClock(START));
            kubelet.start();
            try {
                List<JsonNode> steps = new ArrayList<>();
                pod(client, "serving", Map.of());
                bind(client, "serving");
                steps.add(status(client.pods().inNamespace("default").withName("serving").get()));
                await().atMost(WAIT).until(() -> phase(client, "serving").equals("Running"));
                steps.add(status(client.pods().inNamespace("default").withName("serving").get()));
                pod(client, "batch", Map.of(SchedulingApi.DURATION_ANNOTATION, "0s", SchedulingApi.EXIT_CODE_ANNOTATION, "2"));
                bind(client, "batch");
                await().atMost(WAIT).until(() -> phase(client, "batch").equals("Failed"));
                steps.add(status(client.pods().inNamespace("default").withName("batch").get()));
                observed.put(side.name(), steps);
            } finally {
                kubelet.close();
            }
        }
        List<JsonNode> embedded = observed.get(servers.embedded().name());
        assertThat(embedded.get(1).path("conditions")).hasSize(5);
        assertThat(embedded.get(2).path("phase").asText()).isEqualTo("Failed");
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
    }

    @Test
    void aRunningPodDeletedGracefullyIsDeletedForGoodAsItsKubeletWould(RealControlPlane real) {
        for (Side side : servers.both(real)) {
            // given
            KubernetesClient client = side.client();
            SimulatedNodes.create(client, List.of(NodePool.parse("leaving:1:cpu=4,memory=8Gi")), new TestingClock(START));
            SimulatedKubelet kubelet = new SimulatedKubelet(client, new TestingClock(START));
            kubelet.start();
            try {
                pod(client, "leaving", Map.of());
                bind(client, "leaving", "leaving-1");
                await().atMost(WAIT).until(() -> phase(client, "leaving").equals("Running"));

                // when: deleted as kubectl deletes it, with the default grace period of 30 s, which kube-apiserver leaves
                // to the node's kubelet to end
                client.pods().inNamespace("default").withName("leaving").delete();

                // then
                await(side.name() + ": the pod gone before its grace period ends").atMost(Duration.ofSeconds(15))
                        .until(() -> client.pods().inNamespace("default").withName("leaving").get() == null);
            } finally {
                kubelet.close();
            }
        }
    }

    @Test
    void logRequestsKubeApiServerAnswersItselfAreAnsweredAlike(RealControlPlane real) throws InterruptedException {
        Map<String, List<String>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            pod(side.client(), "unbound-logs", Map.of());
            pod(side.client(), "two-containers", Map.of(), "first", "second");
            List<String> steps = new ArrayList<>();
            for (String[] command : List.of(
                    new String[] {"logs", "absent"},
                    new String[] {"logs", "unbound-logs", "-c", "other"},
                    new String[] {"get", "--raw", "/api/v1/namespaces/default/pods/two-containers/log"},
                    new String[] {"get", "--raw", "/api/v1/namespaces/default/pods/unbound-logs/log"})) {
                TestingKubectl.Result result = TestingKubectl.run(side.kubeconfig(), command);
                steps.add(result.exitCode() + " " + result.output());
            }
            observed.put(side.name(), steps);
        }
        List<String> embedded = observed.get(servers.embedded().name());
        assertThat(embedded.get(0)).isEqualTo("1 error: error from server (NotFound): pods \"absent\" not found in namespace \"default\"");
        assertThat(embedded.get(3)).isEqualTo("0 ");
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
    }

    @Test
    void theLogsOfRunningAndEndedContainersReadAlikeThroughTheKubeletApi(RealControlPlane real) throws InterruptedException {
        Map<String, List<String>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            // given: on the real server, kube-apiserver asks the node's kubelet for the log, at the address and port the
            // node reports; the embedded server answers itself
            KubernetesClient client = side.client();
            SimulatedKubelet kubelet = new SimulatedKubelet(client, new TestingClock(START));
            Optional<KubeletEndpoint> endpoint = side.name().equals(servers.embedded().name()) ? Optional.empty() : Optional.of(kubelet.serveApi());
            SimulatedNodes.create(client, List.of(NodePool.parse("logging:1:cpu=4,memory=8Gi")), new TestingClock(START), endpoint);
            kubelet.start();
            try {
                pod(client, "runs", Map.of());
                bind(client, "runs", "logging-1");
                pod(client, "ends", Map.of(SchedulingApi.DURATION_ANNOTATION, "0s", SchedulingApi.EXIT_CODE_ANNOTATION, "3"));
                bind(client, "ends", "logging-1");
                await().atMost(WAIT).until(() -> phase(client, "runs").equals("Running") && phase(client, "ends").equals("Failed"));

                // when
                List<String> steps = new ArrayList<>();
                for (String[] command : List.of(
                        new String[] {"logs", "runs"},
                        new String[] {"logs", "ends"},
                        new String[] {"logs", "ends", "--timestamps", "--tail=1"},
                        new String[] {"logs", "ends", "--limit-bytes=20"},
                        new String[] {"logs", "runs", "--previous"},
                        new String[] {"logs", "runs", "-f"})) {
                    TestingKubectl.Result result = TestingKubectl.run(side.kubeconfig(), command);
                    steps.add(result.exitCode() + " " + result.output());
                }
                observed.put(side.name(), steps);
            } finally {
                kubelet.close();
            }
        }

        // then
        List<String> embedded = observed.get(servers.embedded().name());
        assertThat(embedded.get(0)).endsWith("\nmuster: simulated container \"main\" of pod default/runs started on node logging-1 (image busybox:1)");
        assertThat(embedded.get(1)).endsWith("muster: simulated container \"main\" exited with code 3 (Error)");
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
    }

    private static void pod(KubernetesClient client, String name, Map<String, String> annotations, String... containers) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withAnnotations(annotations).endMetadata()
                .withNewSpec().addNewInitContainer().withName("setup").withImage("busybox:1").endInitContainer().endSpec();
        for (String container : containers.length == 0 ? new String[] {"main"} : containers) {
            pod.editSpec().addNewContainer().withName(container).withImage("busybox:1").endContainer().endSpec();
        }
        client.resource(pod.build()).create();
    }

    private static void bind(KubernetesClient client, String name) {
        bind(client, name, client.nodes().list().getItems().stream()
                .map(node -> node.getMetadata().getName()).filter(node -> node.startsWith("running")).findFirst().orElseThrow());
    }

    private static void bind(KubernetesClient client, String name, String node) {
        client.bindings().inNamespace("default").resource(new BindingBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewTarget().withKind("Node").withName(node).endTarget().build()).create();
    }

    private static String phase(KubernetesClient client, String name) {
        Pod pod = client.pods().inNamespace("default").withName(name).get();
        return pod.getStatus() == null || pod.getStatus().getPhase() == null ? "" : pod.getStatus().getPhase();
    }

    /** The node as a client reads it, without what differs by server (uid, versions, creation time). */
    private static JsonNode node(KubernetesClient client, String name) {
        ObjectNode node = JSON.valueToTree(client.nodes().withName(name).get());
        ObjectNode kept = JSON.createObjectNode();
        kept.set("labels", node.path("metadata").path("labels"));
        kept.set("annotations", node.path("metadata").path("annotations"));
        // TaintNodesByCondition admission taints a new node not-ready, and no node lifecycle controller runs to lift it
        // from a Ready node: SimulatedNodes lifts it itself, so it is untainted on both
        kept.set("taints", node.path("spec").path("taints"));
        kept.set("status", node.path("status"));
        return kept;
    }

    private static JsonNode lease(KubernetesClient client, String name) {
        // read untyped: the typed Lease holds its renew time as a ZonedDateTime, which a plain ObjectMapper cannot write
        ObjectNode lease = JSON.valueToTree(client.genericKubernetesResources("coordination.k8s.io/v1", "Lease")
                .inNamespace(NodeHeartbeats.NAMESPACE).withName(name).get());
        ObjectNode kept = JSON.createObjectNode();
        kept.set("spec", lease.path("spec"));
        ArrayNode owners = JSON.createArrayNode();
        for (JsonNode owner : lease.path("metadata").path("ownerReferences")) {
            owners.add(((ObjectNode) owner.deepCopy()).put("uid", owner.path("uid").asText().isEmpty() ? "" : "UID"));
        }
        kept.set("owners", owners);
        return kept;
    }

    /** The pod's status, its times and ids that differ by server replaced by what they are. */
    private static JsonNode status(Pod pod) {
        ObjectNode status = JSON.valueToTree(pod.getStatus());
        for (JsonNode condition : status.path("conditions")) {
            if (condition.path("type").asText().equals("PodScheduled") && condition.has("lastTransitionTime")) {
                // set by the server's binding, at the server's time
                ((ObjectNode) condition).put("lastTransitionTime", "SET");
            }
        }
        for (String list : List.of("containerStatuses", "initContainerStatuses")) {
            for (JsonNode container : status.path(list)) {
                String id = container.path("containerID").asText();
                ((ObjectNode) container).put("containerID", id.startsWith("muster://") ? "muster://..." : id);
                JsonNode terminated = container.path("state").path("terminated");
                if (terminated instanceof ObjectNode ended && ended.has("containerID")) {
                    ended.put("containerID", "muster://...");
                }
            }
        }
        return status;
    }
}
