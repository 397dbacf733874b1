package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code muster up --scheduler none}: the embedded cluster and its job controllers, for another scheduler to bind. */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class UpWithoutSchedulerTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String JOB = """
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: tried, namespace: default}
            spec:
              minAvailable: 2
              schedulerName: volcano
              queue: default
              tasks:
              - name: worker
                replicas: 2
                template:
                  spec:
                    restartPolicy: Never
                    containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
            """;

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
    void theJobControllersRunAndNothingBindsAPodUntilAnotherSchedulerDoes() throws Exception {
        // given
        Path kubeconfig = directory.resolve("kubeconfig.yaml");
        up = new Thread(() -> exitCode.set(Main.execute("up", "--scheduler", "none", "--port", "0", "--kubeconfig", kubeconfig.toString(),
                "--nodes", "2:cpu=8,memory=32Gi", "--period", "100ms")), "muster-up");
        up.start();
        await().atMost(WAIT).until(() -> Files.exists(kubeconfig) || !up.isAlive());
        assertThat(exitCode.get()).as("muster up --scheduler none exited").isEqualTo(-1);
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig.toFile())).build()) {
            // when: a Volcano Job and a pod of Muster's
            VolcanoObjects.create(client, JOB);
            Gangs.create(client, Gangs.gang("alone", 1, "cpu: '1'", ""));

            // then: the job controller makes the job's PodGroup, which waits to be admitted (Volcano's controller creates
            // the pods of an admitted one only), and nothing binds the pod that is there
            await().atMost(WAIT).until(() -> client.genericKubernetesResources(VolcanoObjects.POD_GROUPS).inNamespace("default").list()
                    .getItems().stream().anyMatch(podGroup -> podGroup.getMetadata().getOwnerReferences().stream()
                            .anyMatch(owner -> owner.getKind().equals("Job") && owner.getName().equals("tried"))));
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                    .until(() -> pods(client).size() == 1 && pods(client).get(0).getSpec().getNodeName() == null);

            // when: another scheduler binds it
            Pod worker = pods(client).get(0);
            client.bindings().inNamespace("default").resource(new BindingBuilder()
                    .withNewMetadata().withName(worker.getMetadata().getName()).endMetadata()
                    .withNewTarget().withApiVersion("v1").withKind("Node").withName("node-1").endTarget()
                    .build()).create();

            // then: the simulated kubelet runs it
            await().atMost(WAIT).until(() -> "Running".equals(
                    client.pods().inNamespace("default").withName(worker.getMetadata().getName()).get().getStatus().getPhase()));
        }
    }

    private static List<Pod> pods(KubernetesClient client) {
        return client.pods().inNamespace("default").list().getItems();
    }
}
