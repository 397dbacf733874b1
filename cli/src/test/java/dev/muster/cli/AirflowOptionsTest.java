package dev.muster.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.bridge.airflow.AirflowBridgeSettings;
import dev.muster.bridge.airflow.api.AirflowApiVersion;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The Airflow bridge's settings as {@code muster run} and {@code muster up} read them: file, options, environment. */
class AirflowOptionsTest {
    @TempDir
    Path directory;

    private static AirflowOptions parse(String... args) {
        AirflowOptions options = new AirflowOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    @Test
    void noSettingMeansNoAirflow() {
        assertThat(parse().settings(Map.of(AirflowOptions.PASSWORD_VARIABLE, "secret"))).isEmpty();
    }

    @Test
    void optionsOverrideTheFileAndTheCredentialsComeFromAFileOrTheEnvironment() throws IOException {
        Path config = Files.writeString(directory.resolve("airflow.properties"), """
                airflow.url = http://from-the-file:8080
                airflow.api-version = v1
                airflow.retries = 7
                airflow.queue.pool\\:gpu_pool = research
                """, UTF_8);
        Path password = Files.writeString(directory.resolve("password"), "s3cret\n", UTF_8);

        AirflowBridgeSettings settings = parse("--airflow-config", config.toString(), "--airflow-url", "http://airflow:8080",
                "--airflow-queue", "queue:etl=batch", "--airflow-poll-period", "2s", "--airflow-password-file", password.toString())
                .settings(Map.of(AirflowOptions.USERNAME_VARIABLE, "muster", AirflowOptions.PASSWORD_VARIABLE, "not this one")).orElseThrow();

        assertThat(settings.api().url()).isEqualTo(URI.create("http://airflow:8080"));
        assertThat(settings.api().apiVersion()).isEqualTo(AirflowApiVersion.V1);
        assertThat(settings.api().retries()).isEqualTo(7);
        assertThat(settings.api().username()).isEqualTo("muster");
        assertThat(settings.api().password()).isEqualTo("s3cret");
        assertThat(settings.pollPeriod()).isEqualTo(Duration.ofSeconds(2));
        assertThat(settings.hints().queues()).containsExactlyInAnyOrderEntriesOf(Map.of("pool:gpu_pool", "research", "queue:etl", "batch"));
    }

    @Test
    void thePasswordComesFromTheEnvironmentWithoutAFile() {
        AirflowBridgeSettings settings = parse("--airflow-url", "http://airflow:8080", "--airflow-username", "admin")
                .settings(Map.of(AirflowOptions.PASSWORD_VARIABLE, "from-env")).orElseThrow();

        assertThat(settings.api().username()).isEqualTo("admin");
        assertThat(settings.api().password()).isEqualTo("from-env");
    }

    @Test
    void aBadSettingIsNamed() throws IOException {
        assertThatThrownBy(() -> parse("--airflow-url", "ftp://airflow").settings(Map.of()))
                .hasMessage("--airflow-url: 'ftp://airflow' is not an http:// or https:// address with a host");
        assertThatThrownBy(() -> parse("--airflow-url", "http://airflow:8080", "--airflow-api-version", "v3").settings(Map.of()))
                .hasMessageStartingWith("--airflow-api-version: unknown Airflow REST API version 'v3'");
        assertThatThrownBy(() -> parse("--airflow-url", "http://airflow:8080", "--airflow-poll-period", "soon").settings(Map.of()))
                .hasMessageStartingWith("--airflow-poll-period: 'soon' is not a duration");
        assertThatThrownBy(() -> parse("--airflow-url", "http://airflow:8080", "--airflow-queue", "pool:gpu").settings(Map.of()))
                .hasMessageContaining("--airflow-queue: 'pool:gpu' is not pool:NAME=QUEUE");
        assertThatThrownBy(() -> parse("--airflow-queue", "pool:gpu=research").settings(Map.of()))
                .hasMessageStartingWith("--airflow-url (or airflow.url in --airflow-config): missing");
        assertThatThrownBy(() -> parse("--airflow-url", "http://airflow:8080", "--airflow-password-file", directory.resolve("absent").toString())
                .settings(Map.of())).hasMessageContaining("--airflow-password-file: cannot read " + directory.resolve("absent"));
        Path config = Files.writeString(directory.resolve("typo.properties"), "airflow.url=http://airflow:8080\nairflow.pasword=x\n", UTF_8);
        assertThatThrownBy(() -> parse("--airflow-config", config.toString()).settings(Map.of()))
                .hasMessageStartingWith("--airflow-config " + config + ": airflow.pasword: unknown Airflow bridge setting");
        Path badVersion = Files.writeString(directory.resolve("v3.properties"), "airflow.url=http://airflow:8080\nairflow.api-version=v3\n", UTF_8);
        assertThatThrownBy(() -> parse("--airflow-config", badVersion.toString()).settings(Map.of()))
                .hasMessageStartingWith("--airflow-config " + badVersion + ": airflow.api-version: unknown Airflow REST API version 'v3'");
        assertThat(parse("--airflow-config", badVersion.toString(), "--airflow-api-version", "v1").settings(Map.of()).orElseThrow()
                .api().apiVersion()).isEqualTo(AirflowApiVersion.V1);
    }

    @Test
    void runNeedsTheSettingsWithTheBridgeAndTheBridgeWithTheSettings() {
        assertThat(parse().runModule(false, Map.of())).isEmpty();
        assertThat(parse("--airflow-url", "http://airflow:8080").runModule(true, Map.of())).isPresent();
        assertThatThrownBy(() -> parse().runModule(true, Map.of())).hasMessageContaining("--bridge airflow needs --airflow-url");
        assertThatThrownBy(() -> parse("--airflow-url", "http://airflow:8080").runModule(false, Map.of()))
                .hasMessageContaining("without --bridge airflow");
    }

    @Test
    void upWithThePeerPreparesItsHomeAndKeepsThePasswordFromOneRunToTheNext() throws IOException {
        Path kubeconfig = directory.resolve("muster-up.yaml");

        AirflowOptions.Up first = parse().upModule(true, kubeconfig, Map.of());
        String password = Files.readString(AirflowUpPeer.home(kubeconfig).resolve(AirflowUpPeer.PASSWORDS), UTF_8);
        AirflowOptions.Up second = parse().upModule(true, kubeconfig, Map.of());

        Path home = directory.resolve("muster-up.yaml.airflow");
        assertThat(first.module()).isPresent();
        assertThat(second.description()).contains("user muster, password in " + home.resolve(AirflowUpPeer.PASSWORDS))
                .contains("DAG files in " + home.resolve("dags"));
        assertThat(Files.readString(home.resolve(AirflowUpPeer.PASSWORDS), UTF_8)).isEqualTo(password).startsWith("{\"muster\":\"");
        assertThat(home.resolve("config/airflow_local_settings.py")).content(UTF_8).contains("def pod_mutation_hook(pod):");
        assertThat(AirflowUpPeer.command(Path.of("/opt/airflow/bin/airflow"), kubeconfig))
                .startsWith("env").endsWith("/opt/airflow/bin/airflow", "standalone")
                .contains("AIRFLOW_HOME=" + home, "KUBECONFIG=" + kubeconfig.toAbsolutePath(), "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS=muster:admin");
        assertThatThrownBy(() -> parse("--airflow-url", "http://airflow:8080").upModule(true, kubeconfig, Map.of()))
                .hasMessageContaining("--peer airflow runs an Airflow of its own");
        assertThat(parse().upModule(false, kubeconfig, Map.of()).description()).contains("off");
    }
}
