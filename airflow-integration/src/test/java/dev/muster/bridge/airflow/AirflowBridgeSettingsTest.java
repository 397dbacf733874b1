package dev.muster.bridge.airflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.TypeLiteral;
import dev.muster.bridge.airflow.api.AirflowApiVersion;
import dev.muster.bridge.airflow.api.AirflowSettings;
import dev.muster.runtime.controller.Controller;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AirflowBridgeSettingsTest {
    @Test
    void defaultsNeedOnlyTheUrl() {
        AirflowBridgeSettings settings = AirflowBridgeSettings.parse(Map.of(AirflowSettings.URL, "http://airflow:8080"));

        assertThat(settings.api().url()).isEqualTo(URI.create("http://airflow:8080"));
        assertThat(settings.pollPeriod()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.hints().queues()).isEmpty();
        assertThat(settings.hints().historyRuns()).isEqualTo(5);
        assertThat(settings.hints().defaultTaskDuration()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void pollPeriodHintsAndTheQueueMappingAreRead() {
        AirflowBridgeSettings settings = AirflowBridgeSettings.parse(Map.of(
                AirflowSettings.URL, "http://airflow:8080",
                AirflowSettings.API_VERSION, "v1",
                AirflowBridgeSettings.POLL_PERIOD, "250ms",
                AirflowBridgeSettings.DEFAULT_TASK_DURATION, "2m",
                AirflowBridgeSettings.HISTORY_RUNS, "9",
                "airflow.queue.pool:gpu_pool", "research",
                "airflow.queue.queue:etl", " batch "));

        assertThat(settings.api().apiVersion()).isEqualTo(AirflowApiVersion.V1);
        assertThat(settings.pollPeriod()).isEqualTo(Duration.ofMillis(250));
        assertThat(settings.hints().defaultTaskDuration()).isEqualTo(Duration.ofMinutes(2));
        assertThat(settings.hints().historyRuns()).isEqualTo(9);
        assertThat(settings.hints().queues()).containsExactlyInAnyOrderEntriesOf(Map.of("pool:gpu_pool", "research", "queue:etl", "batch"));
    }

    static Stream<Arguments> badSettings() {
        return Stream.of(
                Arguments.of(AirflowBridgeSettings.POLL_PERIOD, "soon", "airflow.poll-period: 'soon' is not a duration"),
                Arguments.of(AirflowBridgeSettings.POLL_PERIOD, "0s", "airflow.poll-period: must be positive: '0s'"),
                Arguments.of(AirflowBridgeSettings.HISTORY_RUNS, "-1", "airflow.history-runs: must not be negative"),
                Arguments.of(AirflowBridgeSettings.HISTORY_RUNS, "many", "airflow.history-runs: 'many' is not a whole number"),
                Arguments.of("airflow.queue.gpu_pool", "research", "airflow.queue.gpu_pool: 'gpu_pool' maps neither an Airflow pool"),
                Arguments.of("airflow.queue.pool:", "research", "airflow.queue.pool:: names no pool or queue"),
                Arguments.of("airflow.queue.pool:gpu", " ", "airflow.queue.pool:gpu: names no Muster queue"),
                Arguments.of("airflow.pasword", "secret", "airflow.pasword: unknown Airflow bridge setting (known: airflow.url"),
                Arguments.of(AirflowSettings.API_VERSION, "v3", "airflow.api-version: unknown Airflow REST API version 'v3'"));
    }

    @ParameterizedTest
    @MethodSource("badSettings")
    void aBadSettingIsNamedWithItsValue(String name, String value, String message) {
        Map<String, String> settings = new TreeMap<>(Map.of(AirflowSettings.URL, "http://airflow:8080", name, value));

        assertThatThrownBy(() -> AirflowBridgeSettings.parse(settings)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }

    @Test
    void theBridgeIsOffWithoutSettingsAndOnWithThem() {
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:1").build()).build()) {
            AbstractModule base = new AbstractModule() {
                @Override
                protected void configure() {
                    bind(KubernetesClient.class).toInstance(client);
                    bind(Clock.class).toInstance(Clock.systemUTC());
                }
            };
            AirflowBridgeSettings settings = AirflowBridgeSettings.parse(Map.of(AirflowSettings.URL, "http://airflow:8080"));

            Injector off = Guice.createInjector(base, new AirflowBridgeModule());
            Injector on = Guice.createInjector(base, new AirflowBridgeModule(), AirflowBridgeModule.settings(settings));

            assertThat(controllers(off)).singleElement().satisfies(controller ->
                    assertThat(((AirflowPodController) controller).enabled()).isFalse());
            assertThat(controllers(on)).singleElement().satisfies(controller ->
                    assertThat(((AirflowPodController) controller).enabled()).isTrue());
            assertThat(on.getInstance(Key.get(new TypeLiteral<Optional<AirflowBridgeSettings>>() {}))).contains(settings);
        }
    }

    private static Set<Controller> controllers(Injector injector) {
        return injector.getInstance(Key.get(new TypeLiteral<Set<Controller>>() {}));
    }
}
