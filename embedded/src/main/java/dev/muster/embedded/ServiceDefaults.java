package dev.muster.embedded;

import static dev.muster.embedded.FieldDefaults.putIfEmpty;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What kube-apiserver v1.34.4 gives a Service, on a single-stack IPv4 cluster: {@code SetDefaults_Service}
 * when decoded ({@code sessionAffinity: None}, {@code type: ClusterIP}, a port's {@code protocol: TCP} and
 * {@code targetPort} its port, {@code internalTrafficPolicy: Cluster}, {@code externalTrafficPolicy:
 * Cluster} and {@code allocateLoadBalancerNodePorts} where they apply), and on create what its service
 * storage allocates ({@code pkg/registry/core/service/storage/alloc.go}): the IP family fields (a
 * headless Service without a selector is {@code RequireDualStack} with both families, others {@code
 * SingleStack} IPv4), a cluster IP from {@code 10.96.0.0/16} unless it is headless or names its own, node
 * ports from 30000-32767 for NodePort and LoadBalancer Services, and an empty load balancer status.
 * Addresses are given in order, never twice (kube-apiserver picks them at random from the range).
 */
final class ServiceDefaults {
    private static final String SPEC = "spec";
    private static final String NONE = "None";
    private static final String CLUSTER = "Cluster";
    private static final int FIRST_NODE_PORT = 30000;
    private static final int NODE_PORTS = 2768;
    /** 10.96.0.1 is the kubernetes Service's on a cluster; the rest of the /16 is handed out from .10. */
    private static final int FIRST_HOST = 10;
    private static final int HOSTS = 65534;

    private final AtomicInteger nextAddress = new AtomicInteger();
    private final AtomicInteger nextNodePort = new AtomicInteger();

    /** {@code SetDefaults_Service}. */
    static void decode(ObjectNode service) {
        if (!(service.path(SPEC) instanceof ObjectNode spec)) {
            return;
        }
        putIfEmpty(spec, "sessionAffinity", NONE);
        if (spec.path("sessionAffinity").asText().equals(NONE)) {
            spec.remove("sessionAffinityConfig");
        } else if (spec.path("sessionAffinity").asText().equals("ClientIP")
                && !spec.path("sessionAffinityConfig").path("clientIP").hasNonNull("timeoutSeconds")) {
            spec.putObject("sessionAffinityConfig").putObject("clientIP").put("timeoutSeconds", 10800);
        }
        putIfEmpty(spec, "type", "ClusterIP");
        for (JsonNode port : spec.path("ports")) {
            if (port instanceof ObjectNode fields) {
                putIfEmpty(fields, "protocol", "TCP");
                JsonNode target = fields.path("targetPort");
                if (target.isMissingNode() || target.isNull() || target.asText().isEmpty() || target.asText().equals("0")) {
                    fields.set("targetPort", fields.path("port"));
                }
            }
        }
        String type = spec.path("type").asText();
        boolean external = type.equals("NodePort") || type.equals("LoadBalancer")
                || type.equals("ClusterIP") && !spec.path("externalIPs").isEmpty();
        if (external) {
            putIfEmpty(spec, "externalTrafficPolicy", CLUSTER);
        }
        if (!spec.hasNonNull("internalTrafficPolicy") && (type.equals("NodePort") || type.equals("LoadBalancer") || type.equals("ClusterIP"))) {
            spec.put("internalTrafficPolicy", CLUSTER);
        }
        if (type.equals("LoadBalancer") && !spec.hasNonNull("allocateLoadBalancerNodePorts")) {
            spec.put("allocateLoadBalancerNodePorts", true);
        }
    }

    /** What the service storage allocates for a new Service. */
    void onCreate(ObjectNode service) {
        // the strategy's PrepareForCreate: a new Service's status is empty, whatever was sent
        service.putObject("status").putObject("loadBalancer");
        if (!(service.path(SPEC) instanceof ObjectNode spec) || spec.path("type").asText().equals("ExternalName")) {
            return;
        }
        boolean headless = spec.path("clusterIP").asText().equals(NONE);
        boolean selectorless = spec.path("selector").isEmpty();
        if (!spec.hasNonNull("ipFamilyPolicy")) {
            spec.put("ipFamilyPolicy", headless && selectorless ? "RequireDualStack" : "SingleStack");
        }
        if (spec.path("ipFamilies").isEmpty()) {
            spec.putArray("ipFamilies").add("IPv4");
            if (headless && selectorless && !spec.path("ipFamilyPolicy").asText().equals("SingleStack")) {
                spec.withArrayProperty("ipFamilies").add("IPv6");
            }
        }
        if (spec.path("clusterIP").asText("").isEmpty()) {
            int host = FIRST_HOST + Math.floorMod(nextAddress.getAndIncrement(), HOSTS - FIRST_HOST);
            spec.put("clusterIP", "10.96." + (host >> 8) + "." + (host & 0xff));
        }
        if (spec.path("clusterIPs").isEmpty()) {
            spec.putArray("clusterIPs").add(spec.path("clusterIP").asText());
        }
        String type = spec.path("type").asText();
        if (type.equals("NodePort") || type.equals("LoadBalancer") && spec.path("allocateLoadBalancerNodePorts").asBoolean(true)) {
            for (JsonNode port : spec.path("ports")) {
                if (port instanceof ObjectNode fields && fields.path("nodePort").asInt(0) == 0) {
                    fields.put("nodePort", FIRST_NODE_PORT + Math.floorMod(nextNodePort.getAndIncrement(), NODE_PORTS));
                }
            }
        }
    }
}
