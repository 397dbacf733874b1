package dev.muster.engine.actions;

import static dev.muster.engine.testing.ClusterScenario.cpuMemory;
import static dev.muster.engine.testing.ClusterScenario.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingCapabilityPlugin;
import dev.muster.engine.testing.TestingScheduler;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Volcano's {@code preempt_test.go} and {@code priority_test.go} cases, with the test capability plugin
 * standing in for proportion's capability check.
 */
class PreemptActionTest {
    private static final String TIERS = """
            tiers:
            - plugins:
              - name: conformance
              - name: gang
                enableJobOrder: false
                enableJobReady: false
                enableTaskOrder: false
                enableReclaimable: false
              - name: priority
                enableJobReady: false
                enableReclaimable: false
              - name: testing-capability
            """;
    private static final TestingScheduler PREEMPT = TestingScheduler.withConfig("actions: \"preempt\"\n" + TIERS,
            new TestingCapabilityPlugin.Module());

    private static final int LOW = 10;
    private static final int HIGH = 100000;

    @Test
    void doesNotEvictWhenFutureIdleIsEnough() {
        // given: the job starves for its third gang member, and the node has room for it
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(10, 10))
                .queue("q1", 1)
                .job("c1/pg1", "q1", 3, cpuMemory(1, 1), 1)
                .pod(pod("c1/pg1", "preemptee1").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/pg1", "preemptee2").request(cpuMemory(1, 1)).runningOn("n1"))
                .build();

        // when
        SessionResult result = PREEMPT.runOnce(scenario);

        // then
        assertThat(result.evictions()).isEmpty();
        assertThat(result.binds()).isEmpty();
        assertThat(result.pipelined()).containsEntry(TaskId.parse("c1/pg1-0"), new NodeName("n1"));
    }

    @Test
    void evictsOnePreemptableTaskOfALowerPriorityJob() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(2, 2))
                .queue("q1", 1)
                .job("c1/pg1", "q1", 1, cpuMemory(1, 1), 0, PodGroupPhase.INQUEUE, LOW)
                .pod(pod("c1/pg1", "preemptee1").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/pg1", "preemptee2").request(cpuMemory(1, 1)).runningOn("n1").notPreemptable())
                .job("c1/pg2", "q1", 1, cpuMemory(1, 1), 2, PodGroupPhase.INQUEUE, HIGH)
                .build();

        // when
        SessionResult result = PREEMPT.runOnce(scenario);

        // then: once one preemptor is pipelined the job no longer starves
        assertThat(evicted(result)).containsExactly("c1/preemptee1");
        assertThat(result.pipelined()).containsOnlyKeys(TaskId.parse("c1/pg2-0"));
        assertThat(result.binds()).isEmpty();
    }

    @Test
    void anEvictionNamesThePreemptActionAndTheVictimsJobAndQueue() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .queue("q1", 1)
                .job("c1/low", "q1", 0, cpuMemory(1, 1), 0, PodGroupPhase.INQUEUE, LOW)
                .pod(pod("c1/low", "victim").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/high", "q1", 1, cpuMemory(1, 1), 1, PodGroupPhase.INQUEUE, HIGH)
                .build();

        // when
        SessionResult result = PREEMPT.runOnce(scenario);

        // then
        assertThat(result.evictions()).containsExactly(new SessionResult.Eviction(TaskId.parse("c1/victim"), JobId.parse("c1/low"),
                new QueueName("q1"), PreemptAction.NAME, "preempted for c1/high-0 on n1"));
    }

    @Test
    void evictsWhenTheQueueCapabilityIsWhatIsShort() {
        // given: the node has room, the queue does not
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(12, 12))
                .queue("q1", 1, Optional.of(cpuMemory(4, 4)))
                .job("c1/pg1", "q1", 0, cpuMemory(3, 3), 0, PodGroupPhase.INQUEUE, LOW)
                .pod(pod("c1/pg1", "preemptee1").request(cpuMemory(3, 3)).runningOn("n1"))
                .job("c1/pg2", "q1", 1, cpuMemory(3, 3), 1, PodGroupPhase.INQUEUE, HIGH)
                .build();

        // when
        SessionResult result = PREEMPT.runOnce(scenario);

        // then
        assertThat(evicted(result)).containsExactly("c1/preemptee1");
    }

    @Test
    void neverEvictsNotPreemptableTasksAndEvictsLowerTaskPriorityFirst() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(12, 12))
                .queue("q1", 1, Optional.of(cpuMemory(3, 3)))
                .job("c1/pg1", "q1", 1, cpuMemory(1, 1), 0, PodGroupPhase.INQUEUE, LOW)
                .pod(pod("c1/pg1", "preemptee1").request(cpuMemory(1, 1)).runningOn("n1").notPreemptable())
                .pod(pod("c1/pg1", "preemptee2").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/pg1", "preemptee3").request(cpuMemory(1, 1)).runningOn("n1").priority(HIGH))
                .job("c1/pg2", "q1", 1, cpuMemory(1, 1), 1, PodGroupPhase.INQUEUE, HIGH)
                .build();

        // when
        SessionResult result = PREEMPT.runOnce(scenario);

        // then
        assertThat(evicted(result)).containsExactly("c1/preemptee2");
    }

    @Test
    void bestEffortPreemptorTakesTheBestEffortVictimsPodSlot() {
        // given: the node takes one pod, held by a best-effort pod of a lower-priority job
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(12, 12), 1)
                .queue("q1", 1, Optional.of(cpuMemory(6, 6)))
                .job("c1/pg1", "q1", 0, Resources.EMPTY, 0, PodGroupPhase.INQUEUE, LOW)
                .pod(pod("c1/pg1", "preemptee1").runningOn("n1"))
                .job("c1/pg2", "q1", 1, Resources.EMPTY, 1, PodGroupPhase.INQUEUE, HIGH)
                .build();

        // when
        SessionResult result = PREEMPT.runOnce(scenario);

        // then
        assertThat(evicted(result)).containsExactly("c1/preemptee1");
        assertThat(result.pipelined()).containsEntry(TaskId.parse("c1/pg2-0"), new NodeName("n1"));
    }

    @Test
    void bestEffortPreemptorNeverEvictsATaskThatRequestsResources() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(12, 12), 1)
                .queue("q1", 1)
                .job("c1/pg1", "q1", 0, cpuMemory(1, 1), 0, PodGroupPhase.INQUEUE, LOW)
                .pod(pod("c1/pg1", "preemptee1").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/pg2", "q1", 1, Resources.EMPTY, 1, PodGroupPhase.INQUEUE, HIGH)
                .build();

        // when
        SessionResult result = PREEMPT.runOnce(scenario);

        // then
        assertThat(result.evictions()).isEmpty();
        assertThat(result.pipelined()).isEmpty();
    }

    @Test
    void givesVictimsBackWhenThePreemptorStillExceedsItsQueueCapability() {
        // given: the gang allows one victim, which is not enough for the queue
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(10, 10))
                .queue("q1", 1, Optional.of(cpuMemory(3, 3)))
                .job("c1/pg1", "q1", 1, cpuMemory(1, 1), 0, PodGroupPhase.INQUEUE, LOW)
                .pod(pod("c1/pg1", "preemptee1").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/pg1", "preemptee2").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/pg2", "q1", 1, cpuMemory(4, 4), 1, PodGroupPhase.INQUEUE, HIGH)
                .build();

        // when
        SessionResult result = PREEMPT.runOnce(scenario);

        // then
        assertThat(result.evictions()).isEmpty();
        assertThat(result.pipelined()).isEmpty();
    }

    @Test
    void preemptsOnlyWithinTheStarvingJobsQueue() {
        // given: q1's running job is not starving; q2's high-priority job is
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(2, 2))
                .queue("q1", 1)
                .queue("q2", 1, Optional.of(cpuMemory(4, 4)))
                .job("c1/pg1", "q1", 1, cpuMemory(1, 1), 0)
                .pod(pod("c1/pg1", "q1-runner1").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/pg2", "q2", 0, cpuMemory(1, 1), 0, PodGroupPhase.INQUEUE, LOW)
                .pod(pod("c1/pg2", "q2-preemptee1").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/pg3", "q2", 1, cpuMemory(1, 1), 1, PodGroupPhase.INQUEUE, HIGH)
                .build();

        // when
        SessionResult result = PREEMPT.runOnce(scenario);

        // then
        assertThat(evicted(result)).containsExactly("c1/q2-preemptee1");
    }

    @Test
    void preemptionPolicyNeverPreemptsNothing() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .queue("q1", 1)
                .job("c1/low", "q1", 0, cpuMemory(1, 1), 0, PodGroupPhase.INQUEUE, LOW)
                .pod(pod("c1/low", "victim").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/high", "q1", 1, cpuMemory(1, 1), 0, PodGroupPhase.INQUEUE, HIGH)
                .pod(pod("c1/high", "polite").request(cpuMemory(1, 1)).preemptionNever())
                .build();

        // when
        SessionResult result = PREEMPT.runOnce(scenario);

        // then
        assertThat(result.evictions()).isEmpty();
    }

    @Test
    void aTaskPreemptsALowerPriorityTaskOfItsOwnJob() {
        // given: without gang, priority keeps the job starving until all its tasks run
        TestingScheduler scheduler = TestingScheduler.withConfig("""
                actions: "preempt"
                tiers:
                - plugins:
                  - name: conformance
                  - name: priority
                """);
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .queue("q1", 1)
                .job("c1/mixed", "q1", 1, cpuMemory(1, 1), 0)
                .pod(pod("c1/mixed", "mixed-0").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/mixed", "mixed-1").request(cpuMemory(1, 1)).priority(HIGH))
                .build();

        // when
        SessionResult result = scheduler.runOnce(scenario);

        // then
        assertThat(evicted(result)).containsExactly("c1/mixed-0");
        assertThat(result.pipelined()).containsEntry(TaskId.parse("c1/mixed-1"), new NodeName("n1"));
    }

    @Test
    void aJobWhoseGangIsWholeDoesNotPreemptWithinItself() {
        // given: as above, but with gang in the tier the job no longer starves: its gang runs
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .queue("q1", 1)
                .job("c1/mixed", "q1", 1, cpuMemory(1, 1), 0)
                .pod(pod("c1/mixed", "mixed-0").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/mixed", "mixed-1").request(cpuMemory(1, 1)).priority(HIGH))
                .build();

        // when
        SessionResult result = PREEMPT.runOnce(scenario);

        // then
        assertThat(result.evictions()).isEmpty();
    }

    @Test
    void equalVictimsAreEvictedInReverseTaskOrder() {
        // given: two equal victims of one job, room for one preemptor after one eviction
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(2, 2))
                .queue("q1", 1)
                .job("c1/low", "q1", 0, cpuMemory(1, 1), 0, PodGroupPhase.INQUEUE, LOW)
                .pod(pod("c1/low", "low-task-0").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/low", "low-task-1").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/high", "q1", 1, cpuMemory(1, 1), 1, PodGroupPhase.INQUEUE, HIGH)
                .build();

        // when
        SessionResult result = PREEMPT.runOnce(scenario);

        // then: the task that comes last in task order (higher index) goes first
        assertThat(evicted(result)).containsExactly("c1/low-task-1");
    }

    @Test
    void nodesWithEqualScoresAreTriedByName() {
        // given: a victim on each node
        var scenario = ClusterScenario.builder()
                .node("n2", cpuMemory(1, 1))
                .node("n1", cpuMemory(1, 1))
                .queue("q1", 1)
                .job("c1/low", "q1", 0, cpuMemory(1, 1), 0, PodGroupPhase.INQUEUE, LOW)
                .pod(pod("c1/low", "on-n2").request(cpuMemory(1, 1)).runningOn("n2"))
                .pod(pod("c1/low", "on-n1").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/high", "q1", 1, cpuMemory(1, 1), 1, PodGroupPhase.INQUEUE, HIGH)
                .build();

        // when
        SessionResult result = PREEMPT.runOnce(scenario);

        // then
        assertThat(evicted(result)).containsExactly("c1/on-n1");
        assertThat(result.pipelined()).containsEntry(TaskId.parse("c1/high-0"), new NodeName("n1"));
    }

    @Test
    void allocateThenPreemptWithThePriorityPluginAlone() {
        // given: Volcano's priority_test "enable preempt low priority"
        TestingScheduler scheduler = TestingScheduler.withConfig("""
                actions: "allocate, preempt"
                tiers:
                - plugins:
                  - name: priority
                """);
        var scenario = ClusterScenario.builder()
                .node("node1", cpuMemory(6, 6))
                .node("node2", cpuMemory(2, 2))
                .queue("q1", 1, Optional.of(cpuMemory(6, 6)))
                .job("ns1/pg1", "q1", 1, cpuMemory(3, 3), 0, PodGroupPhase.INQUEUE, 100)
                .pod(pod("ns1/pg1", "preemptee1").request(cpuMemory(3, 3)).runningOn("node1"))
                .pod(pod("ns1/pg1", "preemptee2").request(cpuMemory(3, 3)).runningOn("node1").priority(1000))
                .job("ns2/pg2", "q1", 1, cpuMemory(3, 3), 0, PodGroupPhase.INQUEUE, 1000)
                .pod(pod("ns2/pg2", "preemptor1").request(cpuMemory(3, 3)))
                .build();

        // when
        SessionResult result = scheduler.runOnce(scenario);

        // then
        assertThat(evicted(result)).containsExactly("ns1/preemptee1");
        assertThat(result.pipelined()).containsEntry(TaskId.parse("ns2/preemptor1"), new NodeName("node1"));
        assertThat(result.binds()).isEmpty();
    }

    @Test
    void sameSnapshotGivesSameDecisions() {
        ClusterSnapshot scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(3, 3))
                .node("n2", cpuMemory(3, 3))
                .queue("q1", 1)
                .job("c1/low", "q1", 0, cpuMemory(1, 1), 0, PodGroupPhase.INQUEUE, LOW)
                .pod(pod("c1/low", "low-0").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/low", "low-1").request(cpuMemory(2, 2)).runningOn("n1"))
                .pod(pod("c1/low", "low-2").request(cpuMemory(3, 3)).runningOn("n2"))
                .job("c1/high", "q1", 2, cpuMemory(2, 2), 2, PodGroupPhase.INQUEUE, HIGH)
                .build();

        assertThat(PREEMPT.runOnce(scenario)).isEqualTo(PREEMPT.runOnce(scenario));
    }

    private static List<String> evicted(SessionResult result) {
        return result.evictions().stream().map(eviction -> eviction.task().toString()).toList();
    }
}
