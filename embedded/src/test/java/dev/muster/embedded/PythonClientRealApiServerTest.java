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
    private static Path python;
    private static Path script;

    @BeforeAll
    static void start() throws IOException {
        InstalledPeer client = PeerInstaller.locate().install(List.of("kubernetes-python")).get("kubernetes-python");
        python = client.executable();
        script = folder.resolve("client_scenarios.py");
        try (InputStream in = PythonClientRealApiServerTest.class.getResourceAsStream("/python/client_scenarios.py")) {
            Files.write(script, in.readAllBytes());
        }
    }

    @Test
    void thePythonClientObservesTheSameOfBothServers(RealControlPlane real) throws Exception {
        Map<String, List<String>> observed = new LinkedHashMap<>();
        for (Side side : servers.both(real)) {
            observed.put(side.name(), run(side));
        }

        List<String> embedded = observed.get(servers.embedded().name());
        assertThat(embedded).containsExactlyElementsOf(observed.get(TestingServers.real(real).name()));
        assertThat(embedded).hasSize(17);
        assertThat(step(embedded, "list")).isEqualTo(JSON.readTree("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\","
                + "\"names\":[\"py-settings\",\"py-typed\"]}"));
        assertThat(step(embedded, "watch from a resourceVersion")).hasSize(4);
        assertThat(step(embedded, "live watch").toString()).contains("[\"ADDED\",\"py-live\"]");
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
        Process process = new ProcessBuilder(python.toString(), script.toString(), side.kubeconfig().toString(), "default")
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean ended = process.waitFor(2, TimeUnit.MINUTES);
        if (!ended) {
            process.destroyForcibly();
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(ended).as("the Python client against %s ended\n%s", side, printed).isTrue();
        assertThat(process.exitValue()).as("the Python client against %s\n%s", side, printed).isZero();
        return printed.lines().toList();
    }
}
