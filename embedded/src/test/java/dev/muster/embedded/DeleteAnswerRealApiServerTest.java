package dev.muster.embedded;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a DELETE answers, side by side with a real kube-apiserver: the deleted object for the kinds
 * whose storage says so ({@code ReturnDeletedObject}), a {@code Status} of {@code Success} naming the
 * object for the others. Clients read one or the other: the Python client's {@code delete_*} returns a
 * {@code V1Status}, kubectl prints {@code deleted} either way.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DeleteAnswerRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** One object of each kind, and the path that deletes it. */
    private static final Map<String, String> OBJECTS = new LinkedHashMap<>();

    static {
        OBJECTS.put("/api/v1/namespaces/default/configmaps/gone", "{apiVersion: v1, kind: ConfigMap, metadata: {name: gone, namespace: default}}");
        OBJECTS.put("/api/v1/namespaces/default/secrets/gone", "{apiVersion: v1, kind: Secret, metadata: {name: gone, namespace: default}}");
        OBJECTS.put("/api/v1/namespaces/default/serviceaccounts/gone",
                "{apiVersion: v1, kind: ServiceAccount, metadata: {name: gone, namespace: default}}");
        OBJECTS.put("/api/v1/namespaces/default/services/gone", "{apiVersion: v1, kind: Service, metadata: {name: gone, namespace: default},"
                + " spec: {ports: [{port: 80, protocol: TCP, targetPort: 80}]}}");
        OBJECTS.put("/api/v1/namespaces/default/pods/gone", "{apiVersion: v1, kind: Pod, metadata: {name: gone, namespace: default},"
                + " spec: {containers: [{name: main, image: 'busybox:1', imagePullPolicy: IfNotPresent, terminationMessagePath: /dev/termination-log,"
                + " terminationMessagePolicy: File}]}}");
        OBJECTS.put("/api/v1/namespaces/default/events/gone", "{apiVersion: v1, kind: Event, metadata: {name: gone, namespace: default},"
                + " involvedObject: {kind: Pod, name: gone, namespace: default}, reason: Tested, message: tested, type: Normal}");
        OBJECTS.put("/apis/coordination.k8s.io/v1/namespaces/default/leases/gone",
                "{apiVersion: coordination.k8s.io/v1, kind: Lease, metadata: {name: gone, namespace: default}}");
        OBJECTS.put("/apis/scheduling.k8s.io/v1/priorityclasses/gone",
                "{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: gone}, value: 10}");
        OBJECTS.put("/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/gone",
                "{apiVersion: rbac.authorization.k8s.io/v1, kind: Role, metadata: {name: gone, namespace: default}}");
        OBJECTS.put("/apis/scheduling.volcano.sh/v1beta1/namespaces/default/podgroups/gone",
                "{apiVersion: scheduling.volcano.sh/v1beta1, kind: PodGroup, metadata: {name: gone, namespace: default}, spec: {minMember: 1}}");
        OBJECTS.put("/apis/scheduling.volcano.sh/v1beta1/queues/gone",
                "{apiVersion: scheduling.volcano.sh/v1beta1, kind: Queue, metadata: {name: gone}, spec: {weight: 1}}");
        OBJECTS.put("/api/v1/nodes/gone", "{apiVersion: v1, kind: Node, metadata: {name: gone}}");
        OBJECTS.put("/api/v1/namespaces/default/persistentvolumeclaims/gone", "{apiVersion: v1, kind: PersistentVolumeClaim,"
                + " metadata: {name: gone, namespace: default}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}");
        OBJECTS.put("/api/v1/persistentvolumes/gone", "{apiVersion: v1, kind: PersistentVolume, metadata: {name: gone},"
                + " spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /tmp/gone}}}");
        OBJECTS.put("/apis/apps/v1/namespaces/default/deployments/gone", "{apiVersion: apps/v1, kind: Deployment,"
                + " metadata: {name: gone, namespace: default}, spec: {selector: {matchLabels: {app: gone}},"
                + " template: {metadata: {labels: {app: gone}}, spec: {containers: [{name: main, image: 'busybox:1'}]}}}}");
        OBJECTS.put("/api/v1/namespaces/gone", "{apiVersion: v1, kind: Namespace, metadata: {name: gone}}");
    }

    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void aDeleteAnswersWithTheObjectOrASuccessStatusAsKubeApiServerDoes(RealControlPlane real) throws Exception {
        Map<String, Map<String, String>> answers = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            answers.put(side.name(), answers(side));
        }

        Map<String, String> kubeApiServer = answers.get(TestingServers.real(real).name());
        assertThat(answers.get(servers.embedded().name())).isEqualTo(kubeApiServer);
        // the real server's answers, so the comparison cannot pass with both sides answering alike but wrongly
        assertThat(kubeApiServer.get("/api/v1/namespaces/default/configmaps/gone")).isEqualTo("200 Status Success configmaps gone");
        assertThat(kubeApiServer.get("/api/v1/namespaces/default/pods/gone")).isEqualTo("200 Pod");
    }

    /** Per object: the status code and the answer's kind; for a Status, its status and the details' kind and name. */
    private static Map<String, String> answers(Side side) throws Exception {
        HttpClient http = side.client().getHttpClient();
        Map<String, String> answers = new LinkedHashMap<>();
        for (Map.Entry<String, String> object : OBJECTS.entrySet()) {
            // a YAML document, which fabric8 would read as JSON for its opening brace without the marker
            side.client().resource(Serialization.unmarshal("---\n" + object.getValue(), GenericKubernetesResource.class)).create();
            String url = side.client().getMasterUrl().toURI().resolve(object.getKey()).toString();
            HttpResponse<String> response = http.sendAsync(http.newHttpRequestBuilder().uri(url).delete(null, null).build(), String.class)
                    .get(30, SECONDS);
            JsonNode body = JSON.readTree(response.body());
            String kind = body.path("kind").asText();
            answers.put(object.getKey(), response.code() + " " + kind + (kind.equals("Status")
                    ? " " + body.path("status").asText() + " " + body.path("details").path("kind").asText() + " "
                            + body.path("details").path("name").asText()
                    : ""));
        }
        return answers;
    }
}
