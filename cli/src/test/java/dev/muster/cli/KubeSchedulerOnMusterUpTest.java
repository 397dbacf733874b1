package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.peers.InstalledPeer;
import dev.muster.peers.PeerInstaller;
import dev.muster.peers.PeerProcesses;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kube-scheduler (peer {@code kube-scheduler}) against {@code muster up --scheduler none}:
 * it lists every kind it watches, takes a pod that names no scheduler as its own (the v1 default
 * {@code default-scheduler}), and binds it with a protobuf Binding the embedded server reads; the
 * simulated kubelet then runs it.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KubeSchedulerOnMusterUpTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String KUBE_SCHEDULER = "kube-scheduler";

    @TempDir
    Path directory;

    private Thread up;
    private final AtomicInteger exitCode = new AtomicInteger(-1);
    private final PeerProcesses peers = new PeerProcesses();

    @AfterEach
    void stop() throws InterruptedException {
        peers.close();
        if (up != null) {
            up.interrupt();
            up.join(WAIT.toMillis());
        }
    }

    @Test
    void kubeSchedulerBindsAPodThatNamesNoSchedulerAndItRuns() {
        // given
        Path kubeconfig = directory.resolve("kubeconfig.yaml");
        up = new Thread(() -> exitCode.set(Main.execute("up", "--scheduler", "none", "--port", "0", "--kubeconfig", kubeconfig.toString(),
                "--nodes", "2:cpu=8,memory=32Gi", "--period", "100ms")), "muster-up");
        up.start();
        await().atMost(WAIT).until(() -> Files.exists(kubeconfig) || !up.isAlive());
        assertThat(exitCode.get()).as("muster up exited").isEqualTo(-1);
        InstalledPeer scheduler = PeerInstaller.locate().install(List.of(KUBE_SCHEDULER)).get(KUBE_SCHEDULER);
        peers.start(List.of(scheduler.executable().toString(), "--kubeconfig", kubeconfig.toString(), "--leader-elect=false",
                "--secure-port=0"), Map.of(), directory.resolve("kube-scheduler.log"));
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig.toFile())).build()) {
            // when: a pod as any cluster's manifests write it, with no schedulerName
            client.resource(new PodBuilder().withNewMetadata().withName("plain").withNamespace("default").endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withImage("busybox").withNewResources()
                    .addToRequests("cpu", new Quantity("1")).endResources().endContainer().endSpec().build())
                    .create();

            // then
            await().atMost(WAIT).untilAsserted(() -> {
                Pod pod = client.pods().inNamespace("default").withName("plain").get();
                assertThat(pod.getSpec().getNodeName()).as(peers.tails(20)).isIn("node-1", "node-2");
                assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
            });
        }
    }
}
