package dev.muster.engine.plugins.overcommit;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static dev.muster.engine.testing.ClusterScenario.cpuMemory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.muster.engine.config.ConfigException;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Resources;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OvercommitPluginTest {
    private static String config(String factor) {
        return """
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: overcommit
                    arguments:
                      overcommit-factor: %s
                """.formatted(factor);
    }

    static Stream<Arguments> admission() {
        return Stream.of(
                // volcano TestOvercommitPlugin: 6 cpu and 20Gi, overcommitted by 1.2
                Arguments.of("a minimum within the overcommitted cluster is admitted", "1.2", cpuMemory(2, 2), PodGroupPhase.INQUEUE),
                Arguments.of("a minimum beyond the overcommitted cluster is not", "1.2", cpuMemory(20, 20), PodGroupPhase.PENDING),
                Arguments.of("a factor of 1.5 admits 9 cpu", "1.5", cpu(9), PodGroupPhase.INQUEUE),
                Arguments.of("a factor below 1.0 means the default 1.2", "0.5", cpu(7), PodGroupPhase.INQUEUE),
                Arguments.of("the default 1.2 does not admit 7.5 cpu", "0.5", cpu(7.5), PodGroupPhase.PENDING));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("admission")
    void jobIsAdmittedWhileItsMinimumFitsTheOvercommittedCluster(String description, String factor, Resources minimum,
            PodGroupPhase expected) {
        // given
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpuMemory(2, 4))
                .node("n2", cpuMemory(4, 16))
                .job("ns/pg1", "default", 2, minimum, 0, PodGroupPhase.PENDING, 0)
                .minResources("ns/pg1", minimum)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(config(factor)).runOnce(snapshot);

        // then
        assertThat(result.jobs().get(JobId.parse("ns/pg1")).phase()).isEqualTo(expected);
    }

    @Test
    void admittedAndRunningJobsHoldTheirMinimums() {
        // given: 12 cpu with the default factor; 4 running and 3 more reserved by an admitted job
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(10))
                .job("ns/running", "default", 1, cpu(4), 0, PodGroupPhase.RUNNING, 0)
                .running("ns/running", "running-0", cpu(4), "n1")
                .minResources("ns/running", cpu(4))
                .job("ns/admitted", "default", 1, cpu(3), 1, PodGroupPhase.INQUEUE, 0)
                .minResources("ns/admitted", cpu(3))
                .job("ns/first", "default", 1, cpu(2), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/first", cpu(2))
                .job("ns/second", "default", 1, cpu(2), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/second", cpu(2))
                .job("ns/third", "default", 1, cpu(2), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/third", cpu(2))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(config("1.2")).runOnce(snapshot);

        // then: 8 of the 12 are idle; 3 are reserved, so two minimums of 2 fit and a third does not
        assertThat(result.jobs().get(JobId.parse("ns/first")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
        assertThat(result.jobs().get(JobId.parse("ns/second")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
        assertThat(result.jobs().get(JobId.parse("ns/third")).phase()).isEqualTo(PodGroupPhase.PENDING);
    }

    @Test
    void minimumsAdmittedThisSessionAddUp() {
        // given: 12 cpu with the default factor, two minimums of 7
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", cpu(10))
                .job("ns/first", "default", 1, cpu(7), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/first", cpu(7))
                .job("ns/second", "default", 1, cpu(7), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/second", cpu(7))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(config("1.2")).runOnce(snapshot);

        // then
        assertThat(result.jobs().get(JobId.parse("ns/first")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
        assertThat(result.jobs().get(JobId.parse("ns/second")).phase()).isEqualTo(PodGroupPhase.PENDING);
    }

    @Test
    void argumentsDefaultToAFactorOfOnePointTwo() {
        SessionConfig config = TestingScheduler.loader().parse("test.conf", """
                actions: "enqueue"
                tiers:
                - plugins:
                  - name: overcommit
                """);

        assertThat(config.tiers().get(0).get(0).args()).isEqualTo(OvercommitArgs.DEFAULTS);
        assertThat(OvercommitArgs.DEFAULTS.factor()).isEqualTo(1.2);
        assertThat(new OvercommitArgs(0.8).effectiveFactor()).isEqualTo(1.2);
        assertThat(new OvercommitArgs(2.0).effectiveFactor()).isEqualTo(2.0);
    }

    @Test
    void factorThatIsNotANumberIsAConfigurationError() {
        assertThatThrownBy(() -> TestingScheduler.loader().parse("test.conf", config("lots")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tiers[0].plugins[0].arguments.overcommit-factor");
    }

    @Test
    void negativeFactorIsAConfigurationError() {
        assertThatThrownBy(() -> TestingScheduler.loader().parse("test.conf", config("-1")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tiers[0].plugins[0].arguments")
                .hasMessageContaining("overcommit-factor must be a positive number");
    }
}
