package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@code muster up} and {@code muster demo} tell users to apply, applied as they would, with
 * kubectl's validation on ({@code --validate=strict}, its default), which reads the server's OpenAPI
 * documents: {@code --validate=false} is not needed.
 */
class ExamplesValidateTest {
    private static EmbeddedApiServer server;
    private static Path kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedApiServer.start(0);
        kubeconfig = Files.createTempFile("examples", ".yaml");
        server.writeKubeconfig(kubeconfig);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        Files.deleteIfExists(kubeconfig);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"examples/up/training.yaml", "examples/jobs", "deploy"})
    void kubectlApplyValidatesAndCreatesTheExamples(String manifests) throws Exception {
        TestingKubectl.Result applied = TestingKubectl.run(kubeconfig, "apply", "--validate=strict", "-f", Path.of("..", manifests).toString());

        assertThat(applied.output()).doesNotContain("error").doesNotContain("unknown field");
        assertThat(applied.exitCode()).isZero();
        assertThat(applied.output()).contains("created");
    }
}
