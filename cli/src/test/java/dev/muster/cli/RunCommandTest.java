package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code muster run} refuses what it cannot use before connecting to anything. */
class RunCommandTest {
    @Test
    void aMissingKubeconfigIsReportedWithItsPath() {
        CliRun run = CliRun.of("run", "--kubeconfig", "does-not-exist.yaml");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("cannot read the kubeconfig does-not-exist.yaml");
    }

    @Test
    void aPeriodMustBePositiveWithAUnit() {
        CliRun run = CliRun.of("run", "--period", "0s");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("'0s' is not a positive period such as 500ms, 1s or 1m30s");
    }

    @Test
    void aPeriodIsAGoDuration() {
        CliRun run = CliRun.of("run", "--period", "1m30s", "--lease-duration", "1.5m", "--kubeconfig", "does-not-exist.yaml");

        // the periods are read: what stops the command is the kubeconfig
        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("cannot read the kubeconfig does-not-exist.yaml").doesNotContain("period", "duration");
    }

    @Test
    void aPeriodThatIsNotAGoDurationIsNamedWithWhatIsWrong() {
        CliRun run = CliRun.of("run", "--period", "5 minutes");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("'5 minutes' is not a duration such as 90s, 1m30s, 1.5h or 500ms: unknown unit ' minutes'");
    }

    @Test
    void helpListsTheOptions() {
        CliRun run = CliRun.of("run", "--help");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.stdout()).contains("--kubeconfig", "--config", "--scheduler-name", "--period", "--leader-elect", "--lease-name",
                "--lease-namespace", "--metrics-port", "--job-controllers", "--bridge", "--job-history");
    }

    @Test
    void aJobHistoryMustKeepAtLeastOneJobAndAtMostWhatAConfigMapHolds() {
        CliRun run = CliRun.of("run", "--job-history", "0");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("--job-history must be between 1 and 5000: 0");
    }

    @Test
    void aLeaseThatCouldExpireBeforeItsLeaderGivesUpIsRefused() {
        CliRun run = CliRun.of("run", "--leader-elect", "--lease-duration", "10s", "--renew-deadline", "15s");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("the lease duration (10000 ms) must be longer than the renew deadline (15000 ms)");
    }

    @Test
    void aMetricsPortMustBeAPort() {
        CliRun run = CliRun.of("run", "--metrics-port", "70000");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("--metrics-port must be between 0 and 65535: 70000");
    }
}
