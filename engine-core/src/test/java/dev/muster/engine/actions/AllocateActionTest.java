package dev.muster.engine.actions;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import org.junit.jupiter.api.Test;

class AllocateActionTest {
    private static final TestingScheduler GANG_ONLY = TestingScheduler.withConfig("""
            actions: "allocate"
            tiers:
            - plugins:
              - name: priority
              - name: gang
            - plugins:
              - name: predicates
            """);

    @Test
    void withoutScorersTiesGoToTheFirstNodeByName() {
        var scenario = ClusterScenario.builder()
                .node("n2", cpu(4))
                .node("n1", cpu(4))
                .job("ns/a", "default", 1, cpu(1), 1)
                .build();

        SessionResult result = GANG_ONLY.runOnce(scenario);

        assertThat(result.binds()).containsEntry(new TaskId("ns", "a-0"), new NodeName("n1"));
    }

    @Test
    void higherPriorityJobIsPlacedFirstWhenOnlyOneFits() {
        var scenario = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("ns/low", "default", 2, cpu(1), 2, PodGroupPhase.INQUEUE, 10)
                .job("ns/high", "default", 2, cpu(1), 2, PodGroupPhase.INQUEUE, 100)
                .build();

        SessionResult result = GANG_ONLY.runOnce(scenario);

        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "high-0"), new TaskId("ns", "high-1"));
        assertThat(result.jobs().get(JobId.parse("ns/low")).reason()).isPresent();
    }

    @Test
    void olderJobIsPlacedFirstWhenPrioritiesTie() {
        var scenario = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("ns/first", "default", 2, cpu(1), 2)
                .job("ns/second", "default", 2, cpu(1), 2)
                .build();

        SessionResult result = GANG_ONLY.runOnce(scenario);

        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "first-0"), new TaskId("ns", "first-1"));
    }

    @Test
    void pendingJobsWaitForEnqueueWhenEnqueueIsConfigured() {
        var scenario = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("ns/waiting", "default", 1, cpu(1), 1, PodGroupPhase.PENDING, 0)
                .build();

        SessionResult withoutEnqueue = GANG_ONLY.runOnce(scenario);
        SessionResult allocateOnlyAfterEnqueue = TestingScheduler.withConfig("""
                actions: "enqueue, allocate"
                tiers: [{plugins: [{name: gang}, {name: predicates}]}]
                """).runOnce(scenario);

        assertThat(withoutEnqueue.binds()).hasSize(1);
        assertThat(allocateOnlyAfterEnqueue.binds()).hasSize(1);
        assertThat(allocateOnlyAfterEnqueue.jobs().get(JobId.parse("ns/waiting")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
    }

    @Test
    void gangThatFitsNoNodeGetsNeitherABindNorAReservation() {
        var scenario = ClusterScenario.builder()
                .node("n1", cpu(2))
                .job("ns/old", "default", 1, cpu(1), 0)
                .running("ns/old", "old-0", cpu(2), "n1")
                .job("ns/new", "default", 1, cpu(1), 1)
                .build();

        SessionResult result = GANG_ONLY.runOnce(scenario);

        assertThat(result.binds()).isEmpty();
        assertThat(result.pipelined()).isEmpty();
        assertThat(result.jobs().get(JobId.parse("ns/new")).reason())
                .hasValueSatisfying(reason -> assertThat(reason).contains("Insufficient cpu"));
    }
}
