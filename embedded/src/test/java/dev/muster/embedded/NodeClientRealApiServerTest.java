package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.InstalledPeer;
import dev.muster.peers.PeerInstaller;
import dev.muster.peers.RealControlPlane;
import dev.muster.peers.WithRealControlPlane;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * verifying it by the kubeconfig's CA. What the client observes must be the same line for line.
 */
@WithRealControlPlane(nodes = 1)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class NodeClientRealApiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path folder;

    @RegisterExtension
    static final TestingServers servers = new TestingServers();
    private static Path node;
    private static Path script;

    @BeforeAll
    static void start() throws IOException {
        InstalledPeer client = PeerInstaller.locate().install(List.of("kubernetes-node")).get("kubernetes-node");
        node = client.executable();
        script = folder.resolve("client_scenarios.mjs");
        try (InputStream in = NodeClientRealApiServerTest.class.getResourceAsStream("/javascript/client_scenarios.mjs")) {
            Files.write(script, in.readAllBytes());
        }
    }

    @Test
    void theJavaScriptClientObservesTheSameOfBothServers(RealControlPlane real) throws Exception {
        Map<String, List<String>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            observed.put(side.name(), run(side));
        }

        List<String> embedded = observed.get(servers.embedded().name());
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
        assertThat(embedded).hasSize(14);
        assertThat(step(embedded, "list")).isEqualTo(JSON.readTree("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\","
                + "\"names\":[\"js-settings\"]}"));
        assertThat(step(embedded, "watch from a resourceVersion")).hasSize(4);
        assertThat(step(embedded, "informer").toString()).contains("[\"add\",\"js-live\",{\"d\":\"4\"}]")
                .contains("[\"update\",\"js-live\",{\"d\":\"5\"}]").contains("[\"delete\",\"js-live\",{\"d\":\"5\"}]");
    }

    private static JsonNode step(List<String> lines, String name) throws IOException {
        for (String line : lines) {
            JsonNode observation = JSON.readTree(line);
            if (observation.path("step").asText().equals(name)) {
                return observation.path("value");
            }
        }
        throw new AssertionError("no step " + name + " in " + lines);
    }

    private static List<String> run(Side side) throws IOException, InterruptedException {
        Path output = folder.resolve(side.name().replace(' ', '-') + ".out");
        Process process = new ProcessBuilder(node.toString(), script.toString(), side.kubeconfig().toString(), "default")
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean ended = process.waitFor(2, TimeUnit.MINUTES);
        if (!ended) {
            process.destroyForcibly();
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(ended).as("the JavaScript client against %s ended\n%s", side, printed).isTrue();
        assertThat(process.exitValue()).as("the JavaScript client against %s\n%s", side, printed).isZero();
        return printed.lines().toList();
    }
}
