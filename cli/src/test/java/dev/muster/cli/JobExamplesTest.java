package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.embedded.NodePool;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The manifests of {@code examples/jobs}, read from the repository, run to completion on the cluster
 * {@code muster up} starts: the scheduler (serving {@code schedulerName: volcano}), the job controllers,
 * simulated nodes and kubelet.
 */
class JobExamplesTest {
    /** Generous: an example runs for 5 to 20 simulated seconds of pod time. */
    static final Duration WAIT = Duration.ofSeconds(120);

    private static EmbeddedCluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        cluster = startCluster();
        client = cluster.client();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    static EmbeddedCluster startCluster() throws IOException, InterruptedException {
        EmbeddedCluster.Options options = new EmbeddedCluster.Options(0, List.of(NodePool.parse("4:cpu=16,memory=64Gi,nvidia.com/gpu=4")),
                Optional.empty(), SchedulerConfigText.builtIn(), Duration.ofMillis(100), true);
        return EmbeddedCluster.start(options, Clock.systemUTC());
    }

    @ParameterizedTest(name = "{0} runs to completion")
    @CsvSource({
        "mpi-ssh-svc.yaml, default, lm-mpi-job",
        "tensorflow-ps-worker.yaml, ml, tensorflow-dist-mnist",
        "task-dependencies.yaml, data, pipeline"})
    void anExampleJobRunsToCompletion(String file, String namespace, String name) throws IOException {
        VolcanoObjects.create(client, VolcanoObjects.example(file));

        await().atMost(WAIT).untilAsserted(() -> assertThat(VolcanoObjects.phase(client, namespace, name)).isEqualTo("Completed"));
        assertThat(VolcanoObjects.job(client, namespace, name).<Object>get("status", "retryCount")).isNull();
    }

    @Test
    void theJobFlowExampleRunsItsStagesOneAfterAnotherAndSucceeds() throws IOException {
        VolcanoObjects.create(client, VolcanoObjects.example("jobflow-three-stages.yaml"));

        await().atMost(WAIT).untilAsserted(() -> assertThat(VolcanoObjects.flowPhase(client, "default", "mnist")).isEqualTo("Succeed"));
        assertThat(VolcanoObjects.flowJobStates(client, "default", "mnist"))
                .containsExactlyInAnyOrder("mnist-prepare=Completed", "mnist-train=Completed", "mnist-evaluate=Completed");
        // each stage started only after the one before it had completed
        assertThat(created("mnist-train")).isAfterOrEqualTo(finished("mnist-prepare"));
        assertThat(created("mnist-evaluate")).isAfterOrEqualTo(finished("mnist-train"));
    }

    private static Instant created(String job) {
        return Instant.parse(VolcanoObjects.job(client, "default", job).getMetadata().getCreationTimestamp());
    }

    private static Instant finished(String job) {
        return Instant.parse(VolcanoObjects.job(client, "default", job).<String>get("status", "state", "lastTransitionTime"))
                .truncatedTo(ChronoUnit.SECONDS);
    }
}
