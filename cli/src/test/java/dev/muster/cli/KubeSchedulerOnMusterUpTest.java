package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
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

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(WAIT);

    @Test
    void kubeSchedulerBindsAPodThatNamesNoSchedulerAndItRuns() {
        // given
        KubernetesClient client = up.start(directory, "--scheduler", "none", "--nodes", "2:cpu=8,memory=32Gi");
        up.startPeer(KUBE_SCHEDULER, executable -> List.of(executable.toString(), "--kubeconfig", up.kubeconfig().toString(),
                "--leader-elect=false", "--secure-port=0"), directory.resolve("kube-scheduler.log"));

        // when: a pod as any cluster's manifests write it, with no schedulerName
        client.resource(new PodBuilder().withNewMetadata().withName("plain").withNamespace("default").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").withNewResources()
                .addToRequests("cpu", new Quantity("1")).endResources().endContainer().endSpec().build())
                .create();

        // then
        await().atMost(WAIT).untilAsserted(() -> {
            Pod pod = client.pods().inNamespace("default").withName("plain").get();
            assertThat(pod.getSpec().getNodeName()).as(up.peerTails(20)).isIn("node-1", "node-2");
            assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
        });
    }
}
