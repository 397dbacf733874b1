package dev.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code muster demo} and {@code muster up} refuse what they cannot use before starting anything. */
class DemoCommandTest {
    @Test
    void theDemoNeedsItsScenario() {
        CliRun run = CliRun.of("demo", "--examples", "does-not-exist");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("does-not-exist not found; run it from the repository root");
    }

    @Test
    void upRefusesANodePoolItCannotRead() {
        CliRun run = CliRun.of("up", "--nodes", "8:cpu");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.stderr()).contains("'cpu' is not RESOURCE=QUANTITY");
    }

    @Test
    void theDemoIsAmongTheCommands() {
        CliRun run = CliRun.of("--help");

        assertThat(run.stdout()).contains("demo", "up", "what-if");
    }
}
