package dev.muster.cli;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
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

    @RegisterExtension
    final MusterUpFixture up = new MusterUpFixture(WAIT);

    @Test
    void theJobControllersRunAndNothingBindsAPodUntilAnotherSchedulerDoes() throws Exception {
        // given
        KubernetesClient client = up.start(directory, "--scheduler", "none", "--nodes", "2:cpu=8,memory=32Gi");

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

    private static List<Pod> pods(KubernetesClient client) {
        return client.pods().inNamespace("default").list().getItems();
    }
}
