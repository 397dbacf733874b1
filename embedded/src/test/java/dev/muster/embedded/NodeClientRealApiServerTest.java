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
 * The official Kubernetes JavaScript client (npm {@code @kubernetes/client-node} 1.4.0, the peer {@code
 * kubernetes-node}) runs the same steps against the embedded server and a real kube-apiserver
 * ({@code src/test/resources/javascript/client_scenarios.mjs}): create without {@code kind}, list
 * kinds, set-based and field selectors, strategic, merge and JSON patches, server-side apply, the error
 * statuses, its {@code Watch} from a resourceVersion, and an informer ({@code makeInformer}: list, then
 * watch) seeing a create, an update and a delete. Both read their server from a kubeconfig over HTTPS,
 * verifying it by the kubeconfig's CA. What the client observes must be the same line for line. A second
 * script ({@code informer_stop.mjs}) stops an informer while it watches: the client reports its own
 * AbortError to the informer's error callbacks, on both servers alike.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class NodeClientRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path folder;

    @RegisterExtension
    static final TestingServers servers = new TestingServers();
    private static ClientScenario scenario;
    private static ClientScenario informerStop;

    @BeforeAll
    static void install() throws IOException {
        scenario = ClientScenario.of("kubernetes-node", "/javascript/client_scenarios.mjs", folder);
        informerStop = ClientScenario.of("kubernetes-node", "/javascript/informer_stop.mjs", folder);
    }

    @Test
    void theJavaScriptClientObservesTheSameOfBothServers(RealControlPlane real) throws Exception {
        Map<String, List<String>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            observed.put(side.name(), scenario.run(side));
        }

        List<String> embedded = observed.get(servers.embedded().name());
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
        assertThat(embedded).hasSize(14);
        assertThat(ClientScenario.step(embedded, "list")).isEqualTo(JSON.readTree("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\","
                + "\"names\":[\"js-settings\"]}"));
        assertThat(ClientScenario.step(embedded, "watch from a resourceVersion")).hasSize(4);
        assertThat(ClientScenario.step(embedded, "informer").toString()).contains("[\"add\",\"js-live\",{\"d\":\"4\"}]")
                .contains("[\"update\",\"js-live\",{\"d\":\"5\"}]").contains("[\"delete\",\"js-live\",{\"d\":\"5\"}]");
    }

    @Test
    void stoppingAnInformerEndsInTheClientsOwnAbortErrorOnBothServers(RealControlPlane real) throws Exception {
        Map<String, List<String>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            observed.put(side.name(), informerStop.run(side));
        }

        List<String> embedded = observed.get(servers.embedded().name());
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
        assertThat(ClientScenario.step(embedded, "informer saw").asText()).isEqualTo("js-stopped");
        // client-node 1.4.0's stop() aborts its own watch request, and node-fetch's AbortError comes back to the
        // informer's error callbacks: what the client does, whichever server it watches
        assertThat(ClientScenario.step(embedded, "after stop").toString())
                .isEqualTo("[[\"error callback\",\"AbortError\",\"The user aborted a request.\"]]");
    }
}
