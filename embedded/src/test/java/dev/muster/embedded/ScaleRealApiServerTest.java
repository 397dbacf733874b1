package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code scale} subresource of Deployments, ReplicaSets and StatefulSets, side by side with the real
 * kube-apiserver: the same Scale read, {@code kubectl scale} sets the replicas, a Scale of an older
 * resource version is a conflict and negative replicas are invalid, with the same answers.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ScaleRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WORKLOADS = """
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, namespace: default}
            spec:
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec: {containers: [{name: main, image: "nginx:1"}]}
            ---
            apiVersion: apps/v1
            kind: ReplicaSet
            metadata: {name: workers, namespace: default}
            spec:
              replicas: 2
              selector: {matchExpressions: [{key: tier, operator: In, values: [b, a]}], matchLabels: {app: workers}}
              template:
                metadata: {labels: {app: workers, tier: a}}
                spec: {containers: [{name: main, image: "busybox:1"}]}
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: db, namespace: default}
            spec:
              serviceName: db
              selector: {matchLabels: {app: db}}
              template:
                metadata: {labels: {app: db}}
                spec: {containers: [{name: main, image: "postgres:17"}]}
            """;
    private static final List<String> SCALES = List.of("deployments/web", "replicasets/workers", "statefulsets/db");

    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void scalesAreReadAndWrittenAsOnKubeApiServer(RealControlPlane real) throws Exception {
        Map<String, List<String>> answers = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            answers.put(side.name(), answers(side));
        }

        List<String> kubeApiServer = answers.get(TestingServers.real(real).name());
        assertThat(answers.get(servers.embedded().name())).isEqualTo(kubeApiServer);
        // the real server's answers, so the comparison cannot pass with neither side serving scales
        assertThat(kubeApiServer.get(1)).contains("\"selector\":\"app=workers,tier in (a,b)\"");
        assertThat(kubeApiServer).contains("0 deployment.apps/web scaled", "replicas 3 3 0");
    }

    private static List<String> answers(Side side) throws Exception {
        for (String workload : WORKLOADS.split("(?m)^---$")) {
            if (!workload.isBlank()) {
                side.client().resource(Serialization.unmarshal(workload, GenericKubernetesResource.class)).create();
            }
        }
        List<String> answers = new ArrayList<>();
        for (String scale : SCALES) {
            answers.add(masked(side.client().raw(scalePath(scale))));
        }
        TestingKubectl.Result scaled = TestingKubectl.run(side.kubeconfig(), "scale", "deployment", "web", "-n", "default", "--replicas=3");
        answers.add(scaled.exitCode() + " " + scaled.output());
        TestingKubectl.Result patched = TestingKubectl.run(side.kubeconfig(), "scale", "statefulset", "db", "-n", "default", "--replicas=3");
        answers.add(patched.exitCode() + " " + patched.output());
        answers.add("replicas " + replicas(side, "deployments/web") + " " + replicas(side, "statefulsets/db") + " "
                + JSON.readTree(side.client().raw(scalePath("deployments/web"))).path("status").path("replicas").asInt(1));
        // a Scale of an older version, then negative replicas
        ObjectNode stale = (ObjectNode) JSON.readTree(side.client().raw(scalePath("replicasets/workers")));
        stale.withObjectProperty("metadata").put("resourceVersion", "1");
        answers.add(failure(side, "PUT", scalePath("replicasets/workers"), stale.toString(), "application/json"));
        answers.add(failure(side, "PATCH", scalePath("replicasets/workers"), "{\"spec\":{\"replicas\":-1}}", "application/merge-patch+json"));
        return answers;
    }

    private static String scalePath(String workload) {
        return "/apis/apps/v1/namespaces/default/" + workload + "/scale";
    }

    private static int replicas(Side side, String workload) throws IOException {
        return JSON.readTree(side.client().raw("/apis/apps/v1/namespaces/default/" + workload)).path("spec").path("replicas").asInt(-1);
    }

    /** The Scale with its uid, version and creation time written as placeholders, the fields kept in order. */
    private static String masked(String scale) throws IOException {
        ObjectNode tree = (ObjectNode) JSON.readTree(scale);
        ObjectNode metadata = (ObjectNode) tree.path("metadata");
        for (String field : List.of("uid", "resourceVersion", "creationTimestamp")) {
            metadata.put(field, metadata.hasNonNull(field) ? field.toUpperCase(Locale.ROOT) : "absent");
        }
        return tree.toString();
    }

    /** The code, reason, message and details of the answer to a write (of a refused one, that is). */
    private static String failure(Side side, String method, String path, String body, String contentType) throws Exception {
        HttpClient http = side.client().getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder().uri(side.client().getMasterUrl().toString().replaceAll("/$", "") + path)
                .method(method, contentType, body).build();
        HttpResponse<String> response = http.sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
        JsonNode status = JSON.readTree(response.body());
        return method + " " + response.code() + " " + status.path("reason").asText() + " " + status.path("message").asText() + " "
                + status.path("details");
    }
}
