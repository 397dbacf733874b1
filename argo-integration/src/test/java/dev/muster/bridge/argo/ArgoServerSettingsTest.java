package dev.muster.bridge.argo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.bridge.argo.server.ArgoServerClient;
import dev.muster.bridge.argo.server.ArgoServerException;
import dev.muster.bridge.argo.server.ArgoServerSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ArgoServerSettingsTest {
    @Test
    void aUrlThatIsNotHttpIsRefusedNamingTheSettingAndTheValue() {
        assertThatThrownBy(() -> ArgoServerSettings.of("argo-server:2746", Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("argo.server-url 'argo-server:2746' is not an http or https URL with a host");
        assertThatThrownBy(() -> ArgoServerSettings.of("https://argo server", Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("argo.server-url 'https://argo server' is not a URL: ");
    }

    @Test
    void anEmptyTokenIsRefusedRatherThanSentAsNone() {
        assertThatThrownBy(() -> ArgoServerSettings.of("https://argo-server.argo:2746", Optional.of(" ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("argo.server-token is empty; leave it out when the Argo Server runs with --auth-mode server");
    }

    @Test
    void aTrailingSlashIsDropped() {
        assertThat(ArgoServerSettings.of("https://argo-server.argo:2746/", Optional.empty()).url().toString())
                .isEqualTo("https://argo-server.argo:2746");
    }

    @Test
    void aServerThatDoesNotAnswerIsNamedWithTheSetting() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        ArgoServerClient client = ArgoServerClient.create(ArgoServerSettings.of("http://127.0.0.1:" + closed, Optional.empty()));

        assertThatThrownBy(() -> client.get("default", "w"))
                .isInstanceOf(ArgoServerException.class)
                .hasMessageStartingWith("Argo Server at http://127.0.0.1:" + closed + " (argo.server-url): get default/w: no answer: ")
                .satisfies(e -> assertThat(((ArgoServerException) e).status()).isEmpty());
    }
}
