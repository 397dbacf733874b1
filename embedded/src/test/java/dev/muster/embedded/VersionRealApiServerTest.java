package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /version}, side by side with the real kube-apiserver: the same fields, the same major, minor,
 * emulation and compatibility versions, and a gitVersion of the same release, since clients (kubectl's
 * skew warning, client-go's feature gates, operators that branch on the server's minor) read them.
 * {@code /apis} lists the groups both serve in the same order: kubectl takes a resource name that
 * two groups serve ({@code jobs}: {@code batch} and Volcano's {@code batch.volcano.sh}) from the first.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class VersionRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @RegisterExtension
    static final TestingServers servers = new TestingServers();

    @Test
    void versionHasTheRealServersFieldsAndRelease(RealControlPlane real) throws JsonProcessingException {
        JsonNode embedded = version(servers.embedded());
        JsonNode kubeApiServer = version(TestingServers.real(real));

        assertThat(names(embedded)).isEqualTo(names(kubeApiServer));
        for (String field : List.of("major", "minor", "emulationMajor", "emulationMinor", "minCompatibilityMajor", "minCompatibilityMinor",
                "gitTreeState", "platform")) {
            assertThat(embedded.path(field).asText()).as(field).isEqualTo(kubeApiServer.path(field).asText());
        }
        assertThat(kubeApiServer.path("gitVersion").asText()).isEqualTo(RealControlPlane.KUBERNETES_VERSION);
        assertThat(embedded.path("gitVersion").asText()).isEqualTo(RealControlPlane.KUBERNETES_VERSION + "+muster");
        assertThat(servers.embedded().client().getKubernetesVersion().getMinor()).isEqualTo(kubeApiServer.path("minor").asText());
    }

    @Test
    void groupsBothServeAreListedInKubeApiServersOrder(RealControlPlane real) throws Exception {
        List<String> embedded = groups(servers.embedded());
        List<String> kubeApiServer = groups(TestingServers.real(real));

        List<String> common = kubeApiServer.stream().filter(embedded::contains).toList();
        assertThat(embedded.stream().filter(common::contains).toList()).isEqualTo(common);
        // the real server's order, so the comparison cannot pass on a list of one
        assertThat(common).contains("apps", "batch", "batch.volcano.sh", "scheduling.volcano.sh");
        assertThat(common.indexOf("batch")).isLessThan(common.indexOf("batch.volcano.sh"));
        servers.embedded().client().resource(Serialization.unmarshal("""
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: which-jobs, namespace: default}
                spec:
                  template:
                    spec: {restartPolicy: Never, containers: [{name: main, image: "busybox:1"}]}
                """, GenericKubernetesResource.class)).create();
        TestingKubectl.Result jobs = TestingKubectl.run(servers.embedded().kubeconfig(), "get", "jobs", "-n", "default", "-o", "name");
        assertThat(jobs.output()).as(jobs.toString()).isEqualTo("job.batch/which-jobs");
    }

    private static List<String> groups(Side side) throws JsonProcessingException {
        List<String> names = new ArrayList<>();
        JSON.readTree(side.client().raw("/apis")).path("groups").forEach(group -> names.add(group.path("name").asText()));
        return names;
    }

    private static JsonNode version(Side side) throws JsonProcessingException {
        return JSON.readTree(side.client().raw("/version"));
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names.stream().sorted().toList();
    }
}
