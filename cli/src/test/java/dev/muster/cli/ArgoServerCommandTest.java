package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Argo bridge's Argo Server settings refused by {@code muster run} before anything starts: exit 2, one message naming the option. */
class ArgoServerCommandTest {
    @TempDir
    Path directory;

    @Test
    void aUrlThatIsNotOneIsRefusedNamingTheOptionAndTheValue() {
        CliRun run = CliRun.of("run", "--bridge", "argo", "--argo-server-url", "argo-server.argo:2746", "--metrics-port", "0");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr().strip()).isEqualTo("muster run: --argo-server-url 'argo-server.argo:2746' is not an http or https URL with a host");
    }

    @Test
    void theServerWithoutTheArgoBridgeIsRefused() {
        CliRun run = CliRun.of("run", "--argo-server-url", "https://argo-server.argo:2746", "--metrics-port", "0");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr().strip()).isEqualTo("muster run: --argo-server-url is for the argo bridge: add --bridge argo");
    }

    @Test
    void aTokenFileWithoutTheServerIsRefused() throws Exception {
        Path token = Files.writeString(directory.resolve("token"), "abc");

        CliRun run = CliRun.of("run", "--bridge", "argo", "--argo-server-token-file", token.toString(), "--metrics-port", "0");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr().strip()).isEqualTo("muster run: --argo-server-token-file needs --argo-server-url: where the Argo Server is");
    }

    @Test
    void anEmptyTokenFileIsRefusedRatherThanSentAsNoToken() throws Exception {
        Path token = Files.writeString(directory.resolve("token"), " \n");

        CliRun run = CliRun.of("run", "--bridge", "argo", "--argo-server-url", "https://argo-server.argo:2746", "--argo-server-token-file",
                token.toString(), "--metrics-port", "0");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr().strip()).isEqualTo("muster run: --argo-server-token-file: " + token + " is empty");
    }
}
