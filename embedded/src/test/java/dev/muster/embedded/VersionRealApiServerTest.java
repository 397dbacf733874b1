package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
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

    private static JsonNode version(Side side) throws JsonProcessingException {
        return JSON.readTree(side.client().raw("/version"));
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names.stream().sorted().toList();
    }
}
