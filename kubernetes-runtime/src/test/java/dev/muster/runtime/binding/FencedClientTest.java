package dev.muster.runtime.binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.Injector;
import com.google.inject.Key;
import dev.muster.runtime.TestingRuntime;
import dev.muster.runtime.Unfenced;
import dev.muster.runtime.kubernetes.TestingApiServer;
import dev.muster.runtime.leader.LeaseConfig;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FencedClientTest {
    private static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases";

    private final TestingApiServer server = new TestingApiServer();
    private final AtomicBoolean open = new AtomicBoolean(true);
    private final WriteFence fence = () -> Optional.of(open.get() ? Duration.ofSeconds(10) : Duration.ZERO);

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void aClosedFenceRefusesWritesBeforeTheyAreSentButNotReadsNorTheExemptLease() {
        // given
        KubernetesClient fenced = FencedClient.of(server.client(), fence, path -> path.startsWith(LEASES));
        fenced.resource(configMap("before")).create();

        // when
        open.set(false);

        // then
        long posts = server.requests("POST", "/configmaps");
        assertThatThrownBy(() -> fenced.resource(configMap("after")).create())
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("not sent: POST /api/v1/namespaces/default/configmaps: this replica's lease may have passed");
        assertThatThrownBy(() -> fenced.configMaps().inNamespace("default").withName("before").delete())
                .isInstanceOf(KubernetesClientException.class).hasMessageContaining("not sent: DELETE");
        assertThat(server.requests("POST", "/configmaps")).isEqualTo(posts);
        assertThat(server.requests("DELETE", "/configmaps")).isZero();
        assertThat(fenced.configMaps().inNamespace("default").withName("before").get()).isNotNull();
        fenced.resource(new LeaseBuilder().withNewMetadata().withNamespace("kube-system").withName("muster-scheduler").endMetadata()
                .withNewSpec().withHolderIdentity("me").endSpec().build()).create();
        assertThat(server.client().leases().inNamespace("kube-system").withName("muster-scheduler").get()).isNotNull();

        // and once it opens again, writes go
        open.set(true);
        fenced.resource(configMap("after")).create();
        assertThat(server.client().configMaps().inNamespace("default").withName("after").get()).isNotNull();
    }

    @Test
    void withoutAFenceTheClientIsItself() {
        assertThat(FencedClient.of(server.client(), WriteFence.NONE, path -> false)).isSameAs(server.client());
    }

    @Test
    void withLeaderElectionWhatTheRuntimeInjectsIsFencedByTheLeaseAndTheElectionsClientIsNot() {
        // given: a runtime with a lease, not started, so it has not led yet and its fence is closed
        LeaseConfig lease = LeaseConfig.withDefaultTimings("kube-system", "muster-scheduler", "me");
        Injector injector = TestingRuntime.injector(server.client(), TestingRuntime.options(Set.of("muster"), Optional.of(lease)),
                Clock.systemUTC());

        // when, then
        KubernetesClient injected = injector.getInstance(KubernetesClient.class);
        assertThatThrownBy(() -> injected.resource(configMap("controller-write")).create())
                .isInstanceOf(KubernetesClientException.class).hasMessageContaining("not sent: POST");
        injector.getInstance(Key.get(KubernetesClient.class, Unfenced.class)).resource(configMap("election-write")).create();
        injected.resource(new LeaseBuilder().withNewMetadata().withNamespace("kube-system").withName("muster-scheduler").endMetadata()
                .withNewSpec().withHolderIdentity("me").endSpec().build()).create();
        assertThat(server.client().configMaps().inNamespace("default").withName("controller-write").get()).isNull();
        assertThat(server.client().configMaps().inNamespace("default").withName("election-write").get()).isNotNull();
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("default").withName(name).endMetadata()
                .withData(Map.of("key", "value")).build();
    }
}
