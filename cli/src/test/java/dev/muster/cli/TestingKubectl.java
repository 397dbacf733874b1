package dev.muster.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** kubectl run as a user runs it against a cluster's kubeconfig, for the tests of {@code muster up}. */
final class TestingKubectl {
    private static final long WAIT_SECONDS = 180;

    private TestingKubectl() {}

    /**
     * Runs kubectl with these arguments and answers what it printed (stdout and stderr); fails unless it exits 0
     * within three minutes. Its discovery cache is a new directory each time: kubectl keeps one per host and port,
     * and a port a test's server had is another test's next.
     */
    static String kubectl(Path kubeconfig, String... arguments) throws IOException, InterruptedException {
        Path cache = Files.createTempDirectory("muster-kubectl-cache-");
        List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(), "--cache-dir", cache.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), UTF_8);
        assertThat(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).as("kubectl ended").isTrue();
        assertThat(process.exitValue()).as("kubectl %s: %s", String.join(" ", arguments), output).isZero();
        return output;
    }
}
