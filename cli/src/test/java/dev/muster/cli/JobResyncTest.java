package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.embedded.EmbeddedApiServer;
import dev.muster.jobs.jobplugins.SshKeyGenerator;
import dev.muster.jobs.runtime.VolcanoControllerTerm;
import dev.muster.runtime.controller.SharedInformers;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The job controllers' periodic resync, driven by hand: the timer's period is a day, so only the
 * test's {@link VolcanoControllerTerm#resync()} brings back what it deletes. No scheduler runs; the plugin
 * objects are made while the job is Pending.
 */
class JobResyncTest {
    private EmbeddedApiServer server;
    private KubernetesClient client;
    private VolcanoControllerTerm controllers;

    @BeforeEach
    void start() throws InterruptedException {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
        controllers = new VolcanoControllerTerm(client, new SharedInformers(client), Clock.systemUTC(), SshKeyGenerator.RSA, Duration.ofDays(1));
        controllers.start();
    }

    @AfterEach
    void stop() {
        controllers.stop();
        client.close();
        server.close();
    }

    @Test
    void aResyncMakesAgainThePluginObjectsDeletedByHand() throws IOException {
        // given: the MPI example's Service, hosts ConfigMap and ssh Secret
        VolcanoObjects.create(client, VolcanoObjects.example("mpi-ssh-svc.yaml"));
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> {
            assertThat(client.services().inNamespace("default").withName("lm-mpi-job").get()).isNotNull();
            assertThat(client.configMaps().inNamespace("default").withName("lm-mpi-job-svc").get()).isNotNull();
            assertThat(client.secrets().inNamespace("default").withName("lm-mpi-job-ssh").get()).isNotNull();
            assertThat(VolcanoObjects.phase(client, "default", "lm-mpi-job")).isEqualTo("Pending");
        });

        // when: someone deletes them, and the resync comes
        client.services().inNamespace("default").withName("lm-mpi-job").delete();
        client.configMaps().inNamespace("default").withName("lm-mpi-job-svc").delete();
        client.secrets().inNamespace("default").withName("lm-mpi-job-ssh").delete();
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> assertThat(client.services().inNamespace("default").list().getItems()).isEmpty());
        controllers.resync();

        // then: they are back, owned by the job
        String uid = VolcanoObjects.job(client, "default", "lm-mpi-job").getMetadata().getUid();
        await().atMost(JobExamplesTest.WAIT).untilAsserted(() -> {
            assertThat(client.services().inNamespace("default").withName("lm-mpi-job").get()).isNotNull()
                    .satisfies(service -> assertThat(service.getSpec().getClusterIP()).isEqualTo("None"));
            assertThat(client.configMaps().inNamespace("default").withName("lm-mpi-job-svc").get()).isNotNull()
                    .satisfies(hosts -> assertThat(hosts.getData()).containsKey("mpiworker.host"));
            assertThat(client.secrets().inNamespace("default").withName("lm-mpi-job-ssh").get()).isNotNull()
                    .satisfies(secret -> assertThat(secret.getMetadata().getOwnerReferences()).singleElement()
                            .satisfies(owner -> assertThat(owner.getUid()).isEqualTo(uid)));
        });
    }
}
