package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.embedded.EmbeddedApiServer;
import dev.muster.embedded.NodePool;
import dev.muster.embedded.SimulatedKubelet;
import dev.muster.embedded.SimulatedNodes;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code muster run --job-controllers} runs Volcano Jobs on a cluster where no Volcano runs. */
class RunJobControllersTest {
    @TempDir
    Path directory;

    private EmbeddedApiServer server;
    private KubernetesClient client;
    private SimulatedKubelet kubelet;
    private Thread run;

    @AfterEach
    void stop() throws InterruptedException {
        if (run != null) {
            run.interrupt();
            run.join(JobExamplesTest.WAIT.toMillis());
        }
        if (kubelet != null) {
            kubelet.close();
        }
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void withJobControllersAVolcanoJobRunsToCompletion() throws Exception {
        // given: an API server with nodes and a kubelet, and nothing else
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
        SimulatedNodes.create(client, List.of(NodePool.parse("2:cpu=8,memory=32Gi")));
        kubelet = new SimulatedKubelet(client, Clock.systemUTC());
        kubelet.start();
        Path kubeconfig = directory.resolve("kubeconfig.yaml");
        server.writeKubeconfig(kubeconfig);

        // when
        run = new Thread(() -> Main.execute("run", "--kubeconfig", kubeconfig.toString(), "--job-controllers", "--scheduler-name", "volcano",
                "--leader-elect=false", "--metrics-port", "0", "--period", "100ms"), "muster-run");
        run.start();
        VolcanoObjects.create(client, """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: pair, namespace: default}
                spec:
                  schedulerName: volcano
                  minAvailable: 2
                  tasks:
                  - name: main
                    replicas: 2
                    template:
                      metadata:
                        annotations: {muster.dev/duration: 1s}
                      spec:
                        containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
                """);

        // then
        await().atMost(JobExamplesTest.WAIT).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(VolcanoObjects.phase(client, "default", "pair")).isEqualTo("Completed"));
    }
}
