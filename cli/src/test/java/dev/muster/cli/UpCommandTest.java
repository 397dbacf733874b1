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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real kubectl against {@code muster up}, when kubectl is on the PATH. */
class UpCommandTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path directory;

    private Thread up;
    private final AtomicInteger exitCode = new AtomicInteger(-1);

    @AfterEach
    void stopUp() throws InterruptedException {
        if (up != null) {
            up.interrupt();
            up.join(WAIT.toMillis());
        }
    }

    @Test
    void kubectlAppliesManifestsAndSeesWherePodsWent() throws Exception {
        // given
        // kubectl is a peer of these tests: missing, they fail rather than skip
        assertThat(onPath("kubectl")).as("kubectl on the PATH").isTrue();
        Path kubeconfig = directory.resolve("kubeconfig.yaml");
        up = new Thread(() -> exitCode.set(Main.execute("up", "--port", "0", "--kubeconfig", kubeconfig.toString(),
                "--nodes", "2:cpu=8,memory=32Gi", "--period", "100ms")), "muster-up");
        up.start();
        await().atMost(WAIT).until(() -> Files.exists(kubeconfig));
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
        up.interrupt();
        up.join(WAIT.toMillis());
        assertThat(exitCode.get()).isEqualTo(ExitCodes.OK);
    }

    @Test
    void kubectlAppliesTheJobExamplesAndEachRunsToCompletion() throws Exception {
        // given
        assertThat(onPath("kubectl")).as("kubectl on the PATH").isTrue();
        Path kubeconfig = directory.resolve("kubeconfig.yaml");
        up = new Thread(() -> exitCode.set(Main.execute("up", "--port", "0", "--kubeconfig", kubeconfig.toString(),
                "--nodes", "4:cpu=16,memory=64Gi,nvidia.com/gpu=4", "--period", "100ms")), "muster-up");
        up.start();
        await().atMost(WAIT).until(() -> Files.exists(kubeconfig));

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
