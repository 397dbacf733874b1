package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.muster.embedded.EmbeddedApiServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link DefaultServiceAccounts} on the embedded server, which has no serviceaccounts controller either. */
class DefaultServiceAccountsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private EmbeddedApiServer server;
    private KubernetesClient client;
    private DefaultServiceAccounts accounts;

    @BeforeEach
    void start() {
        server = EmbeddedApiServer.startPlainHttp(0);
        client = server.newClient();
        accounts = new DefaultServiceAccounts(client);
    }

    @AfterEach
    void stop() {
        accounts.close();
        client.close();
        server.close();
    }

    @Test
    void everyNamespaceThereAtStartAndEveryNewOneGetsItsDefaultServiceAccount() {
        // given
        accounts.start();

        // when
        client.resource(new NamespaceBuilder().withNewMetadata().withName("team-a").endMetadata().build()).create();

        // then
        await().atMost(WAIT).untilAsserted(() -> {
            for (String namespace : new String[] {"default", "kube-system", "kube-public", "kube-node-lease", "team-a"}) {
                assertThat(client.serviceAccounts().inNamespace(namespace).withName(DefaultServiceAccounts.NAME).get())
                        .as("ServiceAccount %s/default", namespace).isNotNull();
            }
        });
    }
}
