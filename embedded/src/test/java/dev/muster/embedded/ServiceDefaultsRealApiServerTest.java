package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
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
 * Services of each type, written without their defaults, are stored with the same defaults and
 * allocations on the embedded server as on a real kube-apiserver: affinity, type, port protocol and
 * target port, traffic policies, IP families and their policy, a cluster IP (its value is the
 * allocator's, compared as present), node ports for a NodePort Service, an empty load balancer status.
 * Spark's driver Service and the training operator's replica Services are headless ones with a selector.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ServiceDefaultsRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> SERVICES = List.of(
            "metadata: {name: web}\nspec: {selector: {app: web}, ports: [{name: http, port: 80}, {name: dns, port: 53, protocol: UDP, targetPort: dns}]}",
            "metadata: {name: driver-svc}\nspec: {clusterIP: None, selector: {spark-role: driver}, ports: [{name: driver-rpc-port, port: 7078}]}",
            "metadata: {name: external-db}\nspec: {clusterIP: None, ports: [{port: 5432}]}",
            "metadata: {name: edge}\nspec: {type: NodePort, selector: {app: edge}, sessionAffinity: ClientIP, ports: [{port: 443}]}",
            "metadata: {name: alias}\nspec: {type: ExternalName, externalName: db.example.com}");

    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void servicesGetKubeApiServersDefaultsAndAllocations(RealControlPlane real) {
        Map<String, List<JsonNode>> stored = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            List<JsonNode> services = new ArrayList<>();
            for (String service : SERVICES) {
                GenericKubernetesResource created = side.client().resource(Serialization.unmarshal(
                        "apiVersion: v1\nkind: Service\n" + service.replace("metadata: {", "metadata: {namespace: default, "),
                        GenericKubernetesResource.class)).create();
                services.add(masked(JSON.valueToTree(created)));
            }
            stored.put(side.name(), services);
        }

        List<JsonNode> kubeApiServer = stored.get(TestingServers.real(real).name());
        assertThat(stored.get(servers.embedded().name())).isEqualTo(kubeApiServer);
        // the real server's answers, so the comparison cannot pass with neither side defaulting
        assertThat(kubeApiServer.get(0).path("spec").path("clusterIP").asText()).isEqualTo("ALLOCATED");
        assertThat(kubeApiServer.get(2).path("spec").path("ipFamilyPolicy").asText()).isEqualTo("RequireDualStack");
        assertThat(kubeApiServer.get(3).path("spec").path("ports").path(0).path("nodePort").asText()).isEqualTo("ALLOCATED");
    }

    /** The spec and status, an allocated cluster IP or node port written ALLOCATED. */
    private static JsonNode masked(JsonNode service) {
        ObjectNode kept = JSON.createObjectNode();
        ObjectNode spec = service.path("spec").deepCopy();
        if (spec.hasNonNull("clusterIP") && !spec.path("clusterIP").asText().equals("None")) {
            spec.put("clusterIP", "ALLOCATED");
            spec.putArray("clusterIPs").add("ALLOCATED");
        }
        for (JsonNode port : spec.path("ports")) {
            if (port.hasNonNull("nodePort")) {
                ((ObjectNode) port).put("nodePort", "ALLOCATED");
            }
        }
        kept.set("spec", spec);
        kept.set("status", service.path("status"));
        return kept;
    }
}
