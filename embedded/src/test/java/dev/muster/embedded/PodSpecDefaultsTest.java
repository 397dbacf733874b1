package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A created pod's spec gets what kube-apiserver's v1 defaults set when absent, and keeps what the client set. */
class PodSpecDefaultsTest {
    private static EmbeddedApiServer server;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(0);
        client = server.newClient();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void aPodWithoutThemGetsTheV1DefaultsSoKubeSchedulerTakesItAsItsOwn() {
        // when
        Pod created = client.resource(new PodBuilder().withNewMetadata().withName("plain").withNamespace("default").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec().build()).create();

        // then
        assertThat(created.getSpec().getSchedulerName()).isEqualTo("default-scheduler");
        assertThat(created.getSpec().getRestartPolicy()).isEqualTo("Always");
        assertThat(created.getSpec().getDnsPolicy()).isEqualTo("ClusterFirst");
        assertThat(created.getSpec().getTerminationGracePeriodSeconds()).isEqualTo(30L);
        assertThat(created.getSpec().getSecurityContext()).isNotNull();
    }

    @Test
    void whatTheClientSetIsKept() {
        // when
        Pod created = client.resource(new PodBuilder().withNewMetadata().withName("set").withNamespace("default").endMetadata()
                .withNewSpec().withSchedulerName("muster").withRestartPolicy("Never").withTerminationGracePeriodSeconds(0L)
                .addNewContainer().withName("main").withImage("busybox").endContainer().endSpec().build()).create();

        // then
        assertThat(created.getSpec().getSchedulerName()).isEqualTo("muster");
        assertThat(created.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(created.getSpec().getTerminationGracePeriodSeconds()).isZero();
    }
}
