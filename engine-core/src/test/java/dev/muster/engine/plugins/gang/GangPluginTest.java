package dev.muster.engine.plugins.gang;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import org.junit.jupiter.api.Test;

class GangPluginTest {
    private static final TestingScheduler SCHEDULER = TestingScheduler.withConfig("""
            actions: "allocate"
            tiers:
            - plugins:
              - name: priority
              - name: gang
            - plugins:
              - name: drf
              - name: predicates
            """);

    @Test
    void gangThatDoesNotFitIsNeverPartlyBound() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpu(4))
                .job("ml/train", "default", 3, cpu(2), 3)
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(scenario);

        // then
        assertThat(result.binds()).isEmpty();
        assertThat(result.jobs().get(JobId.parse("ml/train")).reason())
                .hasValueSatisfying(reason -> assertThat(reason)
                        .startsWith("2/3 tasks of the gang fit")
                        .contains("Insufficient cpu"));
    }

    @Test
    void gangThatFitsIsBoundWhole() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpu(4))
                .node("n2", cpu(2))
                .job("ml/train", "default", 3, cpu(2), 3)
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(scenario);

        // then
        assertThat(result.binds()).hasSize(3);
        assertThat(result.binds().values()).containsOnly(new NodeName("n1"), new NodeName("n2"));
        assertThat(result.jobs().get(JobId.parse("ml/train")).ready()).isTrue();
    }

    @Test
    void tasksBeyondTheGangMinimumAreStillPlaced() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpu(3))
                .job("ml/elastic", "default", 1, cpu(1), 5)
                .build();

        // when
        SessionResult result = SCHEDULER.runOnce(scenario);

        // then
        assertThat(result.binds()).containsOnlyKeys(
                new TaskId("ml", "elastic-0"), new TaskId("ml", "elastic-1"), new TaskId("ml", "elastic-2"));
    }

    @Test
    void sameInputGivesSameDecisions() {
        var scenario = ClusterScenario.builder()
                .node("n1", cpu(4))
                .node("n2", cpu(4))
                .job("a/one", "default", 2, cpu(1), 3)
                .job("b/two", "default", 2, cpu(1), 3)
                .build();

        assertThat(SCHEDULER.runOnce(scenario)).isEqualTo(SCHEDULER.runOnce(scenario));
    }
}
