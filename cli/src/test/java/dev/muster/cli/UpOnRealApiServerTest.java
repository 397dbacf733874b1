package dev.muster.cli;

import static dev.muster.cli.TestingKubectl.kubectl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.peers.PeerInstaller;
import dev.muster.peers.RealControlPlane;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code muster up --apiserver real}: the simulated nodes and kubelet, Muster and Volcano's job controllers on a real
 * kube-apiserver and etcd (peers {@code etcd} and {@code kube-apiserver}, installed by {@code peers/install}; the test
 * fails when they cannot be had). kubectl applies the examples as a user would, with the kubeconfig muster up wrote;
 * muster up's Ctrl-C leaves no etcd or kube-apiserver behind.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class UpOnRealApiServerTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    /** A cold install builds the peers from source: minutes. */
    private static final Duration START = Duration.ofMinutes(3);

    @TempDir
    Path directory;

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(START);

    @Test
    void theTrainingGangAndAVolcanoJobInANamespaceOfItsOwnRunOnKubeApiServerAndCtrlCLeavesNoPeerBehind() throws Exception {
        // given
        KubernetesClient client = up.start(directory, "--apiserver", "real", "--nodes", "4:cpu=16,memory=64Gi,nvidia.com/gpu=8");
        String server = client.getConfiguration().getMasterUrl();
        List<ProcessHandle> peers = ProcessHandle.current().descendants()
                .filter(process -> executable(process).filter(name -> name.equals(RealControlPlane.ETCD)
                        || name.equals(RealControlPlane.KUBE_APISERVER)).isPresent())
                .toList();
        assertThat(peers).as("etcd and kube-apiserver, children of this JVM").hasSize(2);
        await().atMost(WAIT).until(() -> up.output().contains("Ctrl-C stops everything."));
        assertThat(up.output()).contains("muster up: kube-apiserver " + RealControlPlane.KUBERNETES_VERSION + " on "
                + server.replaceFirst("/$", "") + " (real, with etcd;");
        assertThat(kubectl(up.kubeconfig(), "version")).contains("Server Version: " + RealControlPlane.KUBERNETES_VERSION);
        assertThat(kubectl(up.kubeconfig(), "get", "nodes", "--no-headers").lines()).hasSize(4).allMatch(line -> line.contains(" Ready "));

        // when: the gang of four 8-GPU workers, as the README says to try it
        String applied = kubectl(up.kubeconfig(), "apply", "-f", Path.of("..", "examples", "up", "training.yaml").toString());

        // then: Muster binds all four, one per node, and the simulated kubelet runs them
        assertThat(applied).contains("podgroup.scheduling.volcano.sh/resnet created", "pod/resnet-worker-3 created");
        await().atMost(WAIT).untilAsserted(() -> assertThat(client.pods().inNamespace("default").list().getItems())
                .as("the resnet workers on %s", server)
                .filteredOn(pod -> pod.getMetadata().getName().startsWith("resnet-worker-"))
                .hasSize(4)
                .allSatisfy(pod -> assertThat(pod.getStatus().getPhase()).isIn("Running", "Succeeded"))
                .extracting(pod -> pod.getSpec().getNodeName())
                .containsExactlyInAnyOrder("node-1", "node-2", "node-3", "node-4"));

        // when: a Volcano Job in a namespace of its own, which no controller manager gives a ServiceAccount
        kubectl(up.kubeconfig(), "apply", "-f", Path.of("..", "examples", "jobs", "task-dependencies.yaml").toString());

        // then: Muster's stand-in makes the account admission asks for, and the job runs to Completed
        await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(
                kubectl(up.kubeconfig(), "get", "vcjob", "-n", "data", "--no-headers").lines())
                .singleElement().asString().contains(" Completed "));
        List<Pod> dataPods = client.pods().inNamespace("data").list().getItems();
        assertThat(dataPods).isNotEmpty().allSatisfy(pod -> {
            assertThat(pod.getSpec().getServiceAccountName()).isEqualTo(DefaultServiceAccounts.NAME);
            assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
        });

        // when: muster up is interrupted, as Ctrl-C stops it
        up.close();

        // then
        assertThat(up.isRunning()).as("muster up stopped").isFalse();
        assertThat(peers).allSatisfy(peer -> assertThat(peer.isAlive()).as("%s (pid %s) alive", executable(peer), peer.pid()).isFalse());
    }

    @Test
    void aPortGivenWithTheRealApiServerIsRefusedBeforeAnythingStarts() {
        // when
        CliRun run = CliRun.of("up", "--apiserver", "real", "--port", "7443", "--kubeconfig", directory.resolve("unused.yaml").toString());

        // then
        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("--port 7443 is the embedded API server's", "leave --port out");
        assertThat(directory.resolve("unused.yaml")).doesNotExist();
    }

    @Test
    void anUnknownApiServerIsRefusedNamingBoth() {
        // when
        CliRun run = CliRun.of("up", "--apiserver", "kind");

        // then
        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("--apiserver must be embedded or real: 'kind'");
    }

    @Test
    void peersThatCannotBeInstalledEndItWithTheInstallersWordsAndExitCode1() throws IOException {
        // given: an installer that fails as one without the Go module proxy does
        Path installer = directory.resolve("install");
        Files.writeString(installer, """
                #!/bin/sh
                echo "peers/install: cannot build $1: dial tcp: lookup proxy.golang.org: no such host" >&2
                exit 3
                """, StandardCharsets.UTF_8);
        assertThat(installer.toFile().setExecutable(true)).isTrue();
        String previous = System.setProperty(PeerInstaller.INSTALLER_PROPERTY, installer.toString());
        CliRun run;
        try {
            // when
            run = CliRun.of("up", "--apiserver", "real", "--kubeconfig", directory.resolve("unused.yaml").toString());
        } finally {
            if (previous == null) {
                System.clearProperty(PeerInstaller.INSTALLER_PROPERTY);
            } else {
                System.setProperty(PeerInstaller.INSTALLER_PROPERTY, previous);
            }
        }

        // then
        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(run.stderr()).startsWith("muster up: --apiserver real: ")
                .contains("cannot build etcd: dial tcp: lookup proxy.golang.org: no such host")
                .doesNotContain("Exception", "\tat ");
        assertThat(directory.resolve("unused.yaml")).doesNotExist();
    }

    private static Optional<String> executable(ProcessHandle process) {
        return process.info().command().map(command -> Path.of(command).getFileName().toString());
    }
}
