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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A pod and a Deployment's template with containers, ports, probes, a field reference and volumes of
 * several kinds, written without any of their defaults, are stored with the same defaults on the
 * embedded server as on a real kube-apiserver: the containers' pull policy by tag, termination message,
 * resources, port protocol, probe timings, the volumes' modes and an empty dir for a volume without a
 * source, and the pod's requests from its limits. What admission adds on the real server (the
 * service account's token volume, tolerations, priority) is left out by {@code automountServiceAccountToken:
 * false} and by comparing without those fields.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ContainerDefaultsRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String POD_SPEC = """
              automountServiceAccountToken: false
              initContainers:
              - {name: setup, image: "registry.example.com:5000/tools/setup", resources: {limits: {cpu: "1", memory: 1Gi}}}
              containers:
              - name: main
                image: "nginx:1.27"
                ports: [{containerPort: 80}, {containerPort: 53, protocol: UDP}]
                env: [{name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}]
                livenessProbe: {httpGet: {port: 80}}
                readinessProbe: {tcpSocket: {port: 80}, periodSeconds: 5}
                resources: {limits: {cpu: 500m}, requests: {memory: 64Mi}}
              - {name: side, image: busybox}
              - {name: pinned, image: "busybox@sha256:2c3dcb2e3bdd1e6e2b5b0e3e9a7e7c8b1d1b9f6a5f1f1e5c6e3d2b1a0f9e8d7c"}
              - {name: odd, image: "Busybox:latest"}
              volumes:
              - {name: scratch}
              - {name: config, configMap: {name: settings}}
              - {name: secret, secret: {secretName: keys}}
              - {name: host, hostPath: {path: /var/log}}
              - {name: info, downwardAPI: {items: [{path: name, fieldRef: {fieldPath: metadata.name}}]}}
              - name: token
                projected: {sources: [{serviceAccountToken: {path: token}}]}
            """;

    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void aPodAndATemplateGetKubeApiServersContainerAndVolumeDefaults(RealControlPlane real) {
        Map<String, List<JsonNode>> specs = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            JsonNode pod = create(side, "apiVersion: v1\nkind: Pod\nmetadata: {name: defaulted, namespace: default}\nspec:\n" + POD_SPEC);
            JsonNode deployment = create(side, """
                    apiVersion: apps/v1
                    kind: Deployment
                    metadata: {name: defaulted, namespace: default}
                    spec:
                      selector: {matchLabels: {app: defaulted}}
                      template:
                        metadata: {labels: {app: defaulted}}
                        spec:
                    """ + POD_SPEC.indent(4));
            specs.put(side.name(), List.of(withoutAdmission(pod.path("spec")), withoutAdmission(deployment.path("spec").path("template").path("spec"))));
        }

        List<JsonNode> kubeApiServer = specs.get(TestingServers.real(real).name());
        assertThat(specs.get(servers.embedded().name())).isEqualTo(kubeApiServer);
        // the real server's answer, so the comparison cannot pass with neither side defaulting
        JsonNode containers = kubeApiServer.get(0).path("containers");
        assertThat(containers.findValuesAsText("imagePullPolicy")).containsExactly("IfNotPresent", "Always", "IfNotPresent", "IfNotPresent");
        assertThat(kubeApiServer.get(0).path("initContainers").path(0).path("resources").path("requests").path("cpu").asText()).isEqualTo("1");
        assertThat(kubeApiServer.get(1).path("initContainers").path(0).path("resources").has("requests")).isFalse();
    }

    private static JsonNode create(Side side, String manifest) {
        return JSON.valueToTree(side.client().resource(Serialization.unmarshal(manifest, GenericKubernetesResource.class)).create());
    }

    /** The spec without what kube-apiserver's admission plugins (which the embedded server does not run) add. */
    private static JsonNode withoutAdmission(JsonNode spec) {
        ObjectNode copy = spec.deepCopy();
        copy.remove(List.of("tolerations", "priority", "preemptionPolicy", "serviceAccount", "serviceAccountName", "nodeName"));
        return copy;
    }
}
