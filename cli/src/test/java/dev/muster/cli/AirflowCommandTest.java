package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The Airflow bridge's settings refused by {@code muster run} and {@code muster up} before anything starts: exit 2, one message naming the setting. */
class AirflowCommandTest {
    @Test
    void runWithTheBridgeButNoAirflowNamesTheMissingSetting() {
        CliRun run = CliRun.of("run", "--bridge", "airflow", "--metrics-port", "0");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr().strip()).isEqualTo("muster run: --bridge airflow needs --airflow-url (or airflow.url in --airflow-config): "
                + "where Airflow is");
    }

    @Test
    void runRefusesAnUnknownApiVersionNamingTheSettingAndTheValue() {
        CliRun run = CliRun.of("run", "--bridge", "airflow", "--airflow-url", "http://airflow:8080", "--airflow-api-version", "v3",
                "--metrics-port", "0");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr().strip()).isEqualTo("muster run: --airflow-api-version: unknown Airflow REST API version 'v3' "
                + "(v2 for Airflow 3, v1 for Airflow 2)");
    }

    @Test
    void upRefusesAUrlThatIsNotOneBeforeStartingTheCluster() {
        CliRun run = CliRun.of("up", "--port", "0", "--airflow-url", "airflow:8080");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr().strip()).isEqualTo("muster up: --airflow-url: 'airflow:8080' is not an http:// or https:// address with a host");
        assertThat(run.stdout()).doesNotContain("muster up: a Kubernetes API server");
    }

    @Test
    void upsHelpSaysTheBridgeIsOffWithoutAirflow() {
        CliRun run = CliRun.of("up", "--help");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        // picocli wraps the descriptions at 80 columns
        assertThat(run.stdout().replaceAll("\\s+", " ")).contains("--airflow-url=URL").contains("the Airflow bridge is off")
                .contains("airflow (Apache Airflow 3 standalone");
    }
}
