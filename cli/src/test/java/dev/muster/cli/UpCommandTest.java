package dev.muster.cli;

import static dev.muster.cli.TestingKubectl.kubectl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.common.base.Splitter;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The real kubectl against {@code muster up}, when kubectl is on the PATH. */
class UpCommandTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path directory;

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(WAIT);

    @Test
    void kubectlAppliesManifestsAndSeesWherePodsWent() throws Exception {
        // given
        // kubectl is a peer of these tests: missing, they fail rather than skip
        assertThat(onPath("kubectl")).as("kubectl on the PATH").isTrue();
        up.start(directory, "--nodes", "2:cpu=8,memory=32Gi");
        Path kubeconfig = up.kubeconfig();
        Path manifest = directory.resolve("gang.yaml");
        Files.writeString(manifest, Gangs.gang("pair", 2, "cpu: '2'", ""), StandardCharsets.UTF_8);

        // when
        String applied = kubectl(kubeconfig, "apply", "--validate=false", "-f", manifest.toString());

        // then
        assertThat(applied).contains("podgroup.scheduling.volcano.sh/pair created", "pod/pair-0 created", "pod/pair-1 created");
        await().atMost(WAIT).untilAsserted(() -> assertThat(kubectl(kubeconfig, "get", "pods", "-o", "wide").lines()
                .filter(line -> line.startsWith("pair-")))
                .hasSize(2)
                .allMatch(line -> line.contains("Running") && line.matches(".* node-[12] .*")));
        assertThat(kubectl(kubeconfig, "apply", "--validate=false", "-f", Path.of("..", "deploy").toString()))
                .contains("deployment.apps/muster-scheduler created");

        // and Ctrl-C's equivalent stops it cleanly
        assertThat(up.stop()).isEqualTo(ExitCodes.OK);
    }

    @Test
    void kubectlAppliesTheJobExamplesAndEachRunsToCompletion() throws Exception {
        // given
        assertThat(onPath("kubectl")).as("kubectl on the PATH").isTrue();
        up.start(directory, "--nodes", "4:cpu=16,memory=64Gi,nvidia.com/gpu=4");
        Path kubeconfig = up.kubeconfig();

        // when
        String applied = kubectl(kubeconfig, "apply", "--validate=false", "-f", Path.of("..", "examples", "jobs").toString());

        // then
        assertThat(applied).contains("job.batch.volcano.sh/lm-mpi-job created", "job.batch.volcano.sh/tensorflow-dist-mnist created",
                "job.batch.volcano.sh/pipeline created", "jobflow.flow.volcano.sh/mnist created", "queue.scheduling.volcano.sh/research created");
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            assertThat(kubectl(kubeconfig, "get", "jobflows", "mnist", "-o", "jsonpath={.status.state.phase}")).isEqualTo("Succeed");
            assertThat(kubectl(kubeconfig, "get", "vcjob", "--all-namespaces", "--no-headers").lines())
                    .hasSize(6)
                    .allMatch(line -> line.contains(" Completed "));
        });
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String directory : Splitter.on(File.pathSeparatorChar).split(path)) {
            if (Files.isExecutable(Path.of(directory, program))) {
                return true;
            }
        }
        return false;
    }
}
