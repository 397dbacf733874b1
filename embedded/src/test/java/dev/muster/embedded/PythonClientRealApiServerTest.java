package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official Kubernetes Python client (PyPI {@code kubernetes} 34.1.0, the peer {@code
 * kubernetes-python}) runs the same steps against the embedded server and a real kube-apiserver
 * ({@code src/test/resources/python/client_scenarios.py}): create without {@code kind}, list kinds,
 * set-based and field selectors, each patch type, replace and its conflict, the error statuses,
 * delete, and {@code Watch().stream} both from a resourceVersion and live. Both read their server
 * from a kubeconfig over HTTPS, verifying it by the kubeconfig's CA. What the client observes must be
 * the same line for line.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class PythonClientRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path folder;

    @RegisterExtension
    static final TestingServers servers = new TestingServers();
    private static ClientScenario scenario;

    @BeforeAll
    static void install() throws IOException {
        scenario = ClientScenario.of("kubernetes-python", "/python/client_scenarios.py", folder);
    }

    @Test
    void thePythonClientObservesTheSameOfBothServers(RealControlPlane real) throws Exception {
        Map<String, List<String>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            observed.put(side.name(), scenario.run(side));
        }

        List<String> embedded = observed.get(servers.embedded().name());
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
        assertThat(embedded).hasSize(17);
        assertThat(ClientScenario.step(embedded, "list")).isEqualTo(JSON.readTree("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\","
                + "\"names\":[\"py-settings\",\"py-typed\"]}"));
        assertThat(ClientScenario.step(embedded, "watch from a resourceVersion")).hasSize(4);
        assertThat(ClientScenario.step(embedded, "live watch").toString()).contains("[\"ADDED\",\"py-live\"]");
    }
}
