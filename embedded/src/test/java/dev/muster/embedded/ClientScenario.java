package dev.muster.embedded;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.embedded.TestingServers.Side;
import dev.muster.peers.PeerInstaller;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A client library's scenario script (a test resource that prints one JSON line {@code {"step", "value"}}
 * per step), run by a peer's interpreter ({@code kubernetes-python}'s python, {@code kubernetes-node}'s
 * node) as {@code INTERPRETER SCRIPT KUBECONFIG default} against one server, for the side-by-side tests
 * of the official clients.
 */
final class ClientScenario {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path interpreter;
    private final Path script;
    private final Path folder;

    private ClientScenario(Path interpreter, Path script, Path folder) {
        this.interpreter = requireNonNull(interpreter, "interpreter is null");
        this.script = requireNonNull(script, "script is null");
        this.folder = requireNonNull(folder, "folder is null");
    }

    /** Installs (or finds) the peer and copies the script resource into the folder, where its runs' output goes too. */
    static ClientScenario of(String peer, String resource, Path folder) throws IOException {
        Path interpreter = PeerInstaller.locate().install(List.of(peer)).get(peer).executable();
        Path script = folder.resolve(Path.of(resource).getFileName().toString());
        try (InputStream in = ClientScenario.class.getResourceAsStream(resource)) {
            assertThat(in).as("the test resource %s", resource).isNotNull();
            Files.write(script, in.readAllBytes());
        }
        return new ClientScenario(interpreter, script, folder);
    }

    /** The lines the script printed against the side's server; it must end, within two minutes, with exit code 0. */
    List<String> run(Side side) throws IOException, InterruptedException {
        Path output = folder.resolve(side.name().replace(' ', '-') + ".out");
        Process process = new ProcessBuilder(interpreter.toString(), script.toString(), side.kubeconfig().toString(), "default")
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean ended = process.waitFor(2, TimeUnit.MINUTES);
        if (!ended) {
            process.destroyForcibly();
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(ended).as("%s against %s ended\n%s", script.getFileName(), side, printed).isTrue();
        assertThat(process.exitValue()).as("%s against %s\n%s", script.getFileName(), side, printed).isZero();
        return printed.lines().toList();
    }

    /** The value of the named step in a run's lines. */
    static JsonNode step(List<String> lines, String name) throws IOException {
        for (String line : lines) {
            JsonNode observation = JSON.readTree(line);
            if (observation.path("step").asText().equals(name)) {
                return observation.path("value");
            }
        }
        throw new AssertionError("no step " + name + " in " + lines);
    }
}
