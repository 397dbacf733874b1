package dev.muster.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.engine.model.Resources;
import dev.muster.sim.SimulationException;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DurationEstimatesTest {
    private static final GangSpec GANG = new GangSpec("task-3", 4, Resources.of(1000, 1 << 30), 120_000);

    @Test
    void theOracleIsTheTraceDuration() {
        assertThat(DurationEstimates.parse("oracle").estimate("j_1", GANG, 7)).isEqualTo(Duration.ofSeconds(120));
    }

    @Test
    void lognormalNoiseDependsOnlyOnSeedJobAndGang() {
        DurationEstimates noisy = DurationEstimates.parse("lognormal:1");

        assertThat(noisy.estimate("j_1", GANG, 7)).isEqualTo(noisy.estimate("j_1", GANG, 7));
        assertThat(IntStream.range(0, 20).mapToObj(seed -> noisy.estimate("j_1", GANG, seed)).distinct().count()).isGreaterThan(15);
        assertThat(noisy.estimate("j_1", GANG, 7)).isNotEqualTo(noisy.estimate("j_2", GANG, 7));
    }

    @Test
    void lognormalNoiseIsCenteredOnTheTruth() {
        DurationEstimates noisy = DurationEstimates.lognormal(1);

        long above = IntStream.range(0, 1000).filter(seed -> noisy.estimate("j_1", GANG, seed).toMillis() > GANG.durationMillis()).count();

        // The median multiplier is 1: about half the estimates are above the truth.
        assertThat(above).isBetween(400L, 600L);
    }

    @Test
    void zeroSigmaIsTheOracle() {
        assertThat(DurationEstimates.lognormal(0).estimate("j_1", GANG, 7)).isEqualTo(Duration.ofSeconds(120));
    }

    @Test
    void badModelsNameTheValue() {
        assertThatThrownBy(() -> DurationEstimates.parse("lognormal:-1")).isInstanceOf(SimulationException.class)
                .hasMessage("duration estimates 'lognormal:-1': sigma '-1' is not a non-negative number");
        assertThatThrownBy(() -> DurationEstimates.parse("lognormal:x")).isInstanceOf(SimulationException.class).hasMessageContaining("sigma 'x'");
        assertThatThrownBy(() -> DurationEstimates.parse("mean")).isInstanceOf(SimulationException.class)
                .hasMessage("unknown duration estimates 'mean': use oracle or lognormal:SIGMA (e.g. lognormal:1)");
    }
}
