package dev.muster.bridge.airflow.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AirflowSettingsTest {
    @Test
    void defaultsNeedOnlyTheUrl() {
        AirflowSettings settings = AirflowSettings.parse(Map.of(AirflowSettings.URL, "http://airflow:8080"));

        assertThat(settings.url()).isEqualTo(URI.create("http://airflow:8080"));
        assertThat(settings.apiVersion()).isEqualTo(AirflowApiVersion.V2);
        assertThat(settings.requestTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.retries()).isEqualTo(3);
        assertThat(settings.caFile()).isEmpty();
    }

    @Test
    void everySettingIsRead() {
        AirflowSettings settings = AirflowSettings.parse(Map.of(
                AirflowSettings.URL, "https://airflow.example:8443",
                AirflowSettings.API_VERSION, "V1",
                AirflowSettings.USERNAME, "muster",
                AirflowSettings.PASSWORD, "secret",
                AirflowSettings.CONNECT_TIMEOUT, "2s",
                AirflowSettings.REQUEST_TIMEOUT, "0.5s",
                AirflowSettings.RETRIES, "5",
                AirflowSettings.BACKOFF_MIN, "0.1s",
                AirflowSettings.BACKOFF_MAX, "2m"));

        assertThat(settings).isEqualTo(new AirflowSettings(URI.create("https://airflow.example:8443"), AirflowApiVersion.V1, "muster",
                "secret", Optional.empty(), Duration.ofSeconds(2), Duration.ofMillis(500), 5, Duration.ofMillis(100),
                Duration.ofMinutes(2)));
        assertThat(settings.toString()).doesNotContain("secret");
    }

    static Stream<Arguments> badSettings() {
        return Stream.of(
                Arguments.of("no url", Map.of(), "airflow.url: missing"),
                Arguments.of("not an address", Map.of(AirflowSettings.URL, "http://a b"), "airflow.url: 'http://a b' is not an address"),
                Arguments.of("not http", Map.of(AirflowSettings.URL, "ftp://airflow"),
                        "airflow.url: 'ftp://airflow' is not an http:// or https:// address"),
                Arguments.of("unknown API version", Map.of(AirflowSettings.URL, "http://airflow", AirflowSettings.API_VERSION, "v3"),
                        "airflow.api-version: unknown Airflow REST API version 'v3'"),
                Arguments.of("bad timeout", Map.of(AirflowSettings.URL, "http://airflow", AirflowSettings.REQUEST_TIMEOUT, "soon"),
                        "airflow.request-timeout: 'soon' is not a duration"),
                Arguments.of("bad retries", Map.of(AirflowSettings.URL, "http://airflow", AirflowSettings.RETRIES, "many"),
                        "airflow.retries: 'many' is not a whole number"),
                Arguments.of("unreadable CA file", Map.of(AirflowSettings.URL, "https://airflow", AirflowSettings.CA_FILE, "/nonexistent/ca.pem"),
                        "airflow.ca-file: cannot read '/nonexistent/ca.pem'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badSettings")
    void badSettingNamesItselfAndTheValue(String name, Map<String, String> settings, String message) {
        assertThatThrownBy(() -> AirflowSettings.parse(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}
