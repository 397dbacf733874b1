package dev.muster.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** An interceptor sees each client request before the server does, and a failure it gives is the answer. */
class RequestInterceptorTest {
    private final List<RequestInterceptor.Request> seen = new CopyOnWriteArrayList<>();
    private final List<String> refusedPaths = new CopyOnWriteArrayList<>();
    private final EmbeddedApiServer server = EmbeddedApiServer.startPlainHttp(0, request -> {
        seen.add(request);
        return refusedPaths.contains(request.pathWithoutQuery())
                ? Optional.of(RequestInterceptor.Failure.of(503, "injected by the test"))
                : Optional.empty();
    });
    private final KubernetesClient client = server.newClient();

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void theInterceptorSeesEachClientRequestButNotTheServersOwnStart() {
        // when
        client.resource(configMap("settings")).create();
        client.configMaps().withName("settings").get();

        // then: the namespaces and CRDs the server created as it started are not shown
        assertThat(seen).containsExactly(
                new RequestInterceptor.Request("POST", "/api/v1/namespaces/default/configmaps"),
                new RequestInterceptor.Request("GET", "/api/v1/namespaces/default/configmaps/settings"));
    }

    @Test
    void aFailureIsTheAnswerAndNothingIsStored() {
        // given
        refusedPaths.add("/api/v1/namespaces/default/configmaps");

        // when / then
        assertThatThrownBy(() -> client.resource(configMap("refused")).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(503);
                    assertThat(e.getStatus().getReason()).isEqualTo("ServiceUnavailable");
                    assertThat(e.getStatus().getMessage()).isEqualTo("injected by the test");
                });
        refusedPaths.clear();
        assertThat(client.configMaps().withName("refused").get()).isNull();
    }

    @Test
    void aWatchIsShownToTheInterceptorAndOneLetThroughIsServed() {
        // given
        List<String> events = new CopyOnWriteArrayList<>();

        // when
        try (Watch watch = client.configMaps().watch(recording(events))) {
            client.resource(configMap("watched")).create();

            // then
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(events).containsExactly("ADDED watched"));
        }
        assertThat(seen).anySatisfy(request -> {
            assertThat(request.method()).isEqualTo("GET");
            assertThat(request.pathWithoutQuery()).isEqualTo("/api/v1/namespaces/default/configmaps");
            assertThat(request.path()).contains("watch=true");
        });
    }

    static Stream<Arguments> reasons() {
        return Stream.of(
                Arguments.of("a conflict", 409, "Conflict"),
                Arguments.of("a refusal", 403, "Forbidden"),
                Arguments.of("too many requests", 429, "TooManyRequests"),
                Arguments.of("an internal error", 500, "InternalError"),
                Arguments.of("an unavailable server", 503, "ServiceUnavailable"),
                Arguments.of("a gateway timeout", 504, "Timeout"),
                Arguments.of("a 5xx with no reason of its own", 502, "InternalError"),
                Arguments.of("a 4xx with no reason of its own", 418, ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reasons")
    void aFailureOfACodeHasTheReasonApimachineryGivesIt(String description, int code, String reason) {
        assertThat(RequestInterceptor.Failure.of(code, "message").reason()).isEqualTo(reason);
    }

    @Test
    void aFailureMustBeAnErrorCode() {
        assertThatThrownBy(() -> RequestInterceptor.Failure.of(201, "created"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("code must be an HTTP error code: 201");
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().addToData("key", "value").build();
    }

    private static Watcher<ConfigMap> recording(List<String> events) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, ConfigMap resource) {
                events.add(action + " " + resource.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException cause) {
                events.add("closed");
            }
        };
    }
}
