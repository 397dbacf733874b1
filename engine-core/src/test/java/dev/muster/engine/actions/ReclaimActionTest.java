package dev.muster.engine.actions;

import static dev.muster.engine.testing.ClusterScenario.cpuMemory;
import static dev.muster.engine.testing.ClusterScenario.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.QueueState;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingCapabilityPlugin;
import dev.muster.engine.testing.TestingScheduler;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Reclaim without proportion or capacity: victims come from gang and conformance, and the test
 * capability plugin stands in for a queue quota where one is needed.
 */
class ReclaimActionTest {
    private static final TestingScheduler RECLAIM = TestingScheduler.withConfig("""
            actions: "reclaim"
            tiers:
            - plugins:
              - name: conformance
              - name: gang
                enableJobOrder: false
                enableJobReady: false
                enablePreemptable: false
              - name: testing-capability
            """, new TestingCapabilityPlugin.Module());

    @Test
    void reclaimsAPreemptableTaskOfAnotherQueue() {
        // given: Volcano's "two queues, one overusing" without proportion
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(3, 3))
                .queue("q1", 1)
                .queue("q2", 1)
                .job("c1/pg1", "q1", 1, cpuMemory(1, 1), 0)
                .pod(pod("c1/pg1", "preemptee1").request(cpuMemory(1, 1)).runningOn("n1").notPreemptable())
                .pod(pod("c1/pg1", "preemptee2").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/pg1", "preemptee3").request(cpuMemory(1, 1)).runningOn("n1").notPreemptable())
                .job("c1/pg2", "q2", 1, cpuMemory(1, 1), 1)
                .build();

        // when
        SessionResult result = RECLAIM.runOnce(scenario);

        // then
        assertThat(evicted(result)).containsExactly("c1/preemptee2");
        assertThat(result.pipelined()).containsEntry(TaskId.parse("c1/pg2-0"), new NodeName("n1"));
        assertThat(result.binds()).isEmpty();
    }

    @Test
    void anEvictionNamesTheReclaimActionAndTheVictimsJobAndQueue() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .queue("q1", 1)
                .queue("q2", 1)
                .job("c1/lender", "q1", 0, cpuMemory(1, 1), 0)
                .pod(pod("c1/lender", "loan").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/owner", "q2", 1, cpuMemory(1, 1), 1)
                .build();

        // when
        SessionResult result = RECLAIM.runOnce(scenario);

        // then
        assertThat(result.evictions()).containsExactly(new SessionResult.Eviction(TaskId.parse("c1/loan"), JobId.parse("c1/lender"),
                new QueueName("q1"), ReclaimAction.NAME, "reclaimed for c1/owner-0 on n1"));
    }

    @Test
    void evictsNothingWhenTheNodesFutureIdleIsEnough() {
        // given: Volcano's "only commit evictions on the node where reclaim succeeds"
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(10, 10))
                .queue("q1", 1)
                .queue("q2", 9)
                .job("c1/pg-victim", "q1", 0, cpuMemory(2, 2), 0)
                .pod(pod("c1/pg-victim", "victim-n1").request(cpuMemory(2, 2)).runningOn("n1"))
                .job("c1/pg-preemptor", "q2", 1, cpuMemory(3, 3), 1)
                .build();

        // when
        SessionResult result = RECLAIM.runOnce(scenario);

        // then
        assertThat(result.evictions()).isEmpty();
        assertThat(result.pipelined()).containsEntry(TaskId.parse("c1/pg-preemptor-0"), new NodeName("n1"));
    }

    @Test
    void neverReclaimsWithinTheReclaimersQueue() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .queue("q1", 1)
                .job("c1/running", "q1", 0, cpuMemory(1, 1), 0)
                .pod(pod("c1/running", "runner").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/waiting", "q1", 1, cpuMemory(1, 1), 1)
                .build();

        // when
        SessionResult result = RECLAIM.runOnce(scenario);

        // then
        assertThat(result.evictions()).isEmpty();
        assertThat(result.pipelined()).isEmpty();
    }

    @Test
    void neverReclaimsFromAQueueThatIsNotReclaimable() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .queue(new Queue(new QueueName("kept"), "kept", 1, Optional.empty(), Resources.EMPTY, Optional.empty(),
                        Optional.empty(), 0, false, QueueState.OPEN, Instant.EPOCH, ImmutableMap.of()))
                .queue("q2", 1)
                .job("c1/running", "kept", 0, cpuMemory(1, 1), 0)
                .pod(pod("c1/running", "runner").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/waiting", "q2", 1, cpuMemory(1, 1), 1)
                .build();

        // when
        SessionResult result = RECLAIM.runOnce(scenario);

        // then
        assertThat(result.evictions()).isEmpty();
    }

    @Test
    void onlyRunningTasksAreReclaimed() {
        // given: the other queue's task is bound, not yet running
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .queue("q1", 1)
                .queue("q2", 1)
                .job("c1/bound", "q1", 0, cpuMemory(1, 1), 0)
                .pod(pod("c1/bound", "starting").request(cpuMemory(1, 1)).boundTo("n1"))
                .job("c1/waiting", "q2", 1, cpuMemory(1, 1), 1)
                .build();

        // when
        SessionResult result = RECLAIM.runOnce(scenario);

        // then
        assertThat(result.evictions()).isEmpty();
    }

    @Test
    void victimsOfDifferentQueuesGoInReverseQueueOrder() {
        // given: one victim in each of two queues; no plugin orders queues, so q1 (created first) comes
        // first in queue order and its victim last
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(2, 2))
                .queue("q1", 1)
                .queue("q2", 1)
                .queue("q3", 1)
                .job("c1/pg1", "q1", 0, cpuMemory(1, 1), 0)
                .pod(pod("c1/pg1", "in-q1").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/pg2", "q2", 0, cpuMemory(1, 1), 0)
                .pod(pod("c1/pg2", "in-q2").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/pg3", "q3", 1, cpuMemory(1, 1), 1)
                .build();

        // when
        SessionResult result = RECLAIM.runOnce(scenario);

        // then
        assertThat(evicted(result)).containsExactly("c1/in-q2");
    }

    @Test
    void evictsUntilTheRequestFitsAndNoMore() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(3, 3))
                .queue("q1", 1)
                .queue("q2", 1)
                .job("c1/small", "q1", 0, cpuMemory(1, 1), 0)
                .pod(pod("c1/small", "small-task-0").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/small", "small-task-1").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/small", "small-task-2").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/big", "q2", 1, cpuMemory(2, 2), 1)
                .build();

        // when
        SessionResult result = RECLAIM.runOnce(scenario);

        // then: reverse task order, the highest index first
        assertThat(evicted(result)).containsExactly("c1/small-task-2", "c1/small-task-1");
    }

    @Test
    void givesBackVictimsOfANodeWhereTheTaskStillDoesNotFit() {
        // given: n1's victim frees too little, n2's is enough
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .node("n2", cpuMemory(2, 2))
                .queue("q1", 1)
                .queue("q2", 1)
                .job("c1/victims", "q1", 0, cpuMemory(1, 1), 0)
                .pod(pod("c1/victims", "on-n1").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/victims", "on-n2").request(cpuMemory(2, 2)).runningOn("n2"))
                .job("c1/big", "q2", 1, cpuMemory(2, 2), 1)
                .build();

        // when
        SessionResult result = RECLAIM.runOnce(scenario);

        // then
        assertThat(evicted(result)).containsExactly("c1/on-n2");
        assertThat(result.pipelined()).containsEntry(TaskId.parse("c1/big-0"), new NodeName("n2"));
    }

    @Test
    void discardsTheJobsEvictionsWhenItsGangCannotBePipelined() {
        // given: room for one of the two gang members
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .queue("q1", 1)
                .queue("q2", 1)
                .job("c1/victims", "q1", 0, cpuMemory(1, 1), 0)
                .pod(pod("c1/victims", "victim").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/gang", "q2", 2, cpuMemory(1, 1), 2)
                .build();

        // when
        SessionResult result = RECLAIM.runOnce(scenario);

        // then
        assertThat(result.evictions()).isEmpty();
        assertThat(result.pipelined()).isEmpty();
    }

    @Test
    void aQueueThatMayNotReclaimForTheTaskIsSkipped() {
        // given: the reclaimer's queue capability is below its request (Preemptive says no)
        var scenario = reclaimerInQueueWithCapability(cpuMemory(0.5, 0.5));

        // when
        SessionResult result = RECLAIM.runOnce(scenario);

        // then
        assertThat(result.evictions()).isEmpty();
    }

    @Test
    void anOverusedQueueReclaimsNothing() {
        // given: the reclaimer's queue already holds its whole capability; only the overused check is on
        TestingScheduler scheduler = TestingScheduler.withConfig("""
                actions: "reclaim"
                tiers:
                - plugins:
                  - name: gang
                  - name: testing-capability
                    enablePreemptive: false
                    enabledAllocatable: false
                """, new TestingCapabilityPlugin.Module());
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(2, 2))
                .queue("q1", 1)
                .queue("q2", 1, Optional.of(cpuMemory(1, 1)))
                .job("c1/victims", "q1", 0, cpuMemory(1, 1), 0)
                .pod(pod("c1/victims", "victim").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/greedy", "q2", 2, cpuMemory(1, 1), 1)
                .pod(pod("c1/greedy", "held").request(cpuMemory(1, 1)).runningOn("n1"))
                .build();

        // when
        SessionResult result = scheduler.runOnce(scenario);

        // then
        assertThat(result.evictions()).isEmpty();
    }

    @Test
    void preemptionPolicyNeverReclaimsNothing() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .queue("q1", 1)
                .queue("q2", 1)
                .job("c1/victims", "q1", 0, cpuMemory(1, 1), 0)
                .pod(pod("c1/victims", "victim").request(cpuMemory(1, 1)).runningOn("n1"))
                .job("c1/polite", "q2", 1, cpuMemory(1, 1), 0)
                .pod(pod("c1/polite", "polite-0").request(cpuMemory(1, 1)).preemptionNever())
                .build();

        // when
        SessionResult result = RECLAIM.runOnce(scenario);

        // then
        assertThat(result.evictions()).isEmpty();
    }

    @Test
    void sameSnapshotGivesSameDecisions() {
        ClusterSnapshot scenario = reclaimerInQueueWithCapability(cpuMemory(8, 8));

        SessionResult first = RECLAIM.runOnce(scenario);

        assertThat(first.evictions()).isNotEmpty();
        assertThat(RECLAIM.runOnce(scenario)).isEqualTo(first);
    }

    private static ClusterSnapshot reclaimerInQueueWithCapability(Resources capability) {
        return ClusterScenario.builder()
                .node("n1", cpuMemory(2, 2))
                .node("n2", cpuMemory(2, 2))
                .queue("q1", 1)
                .queue("q2", 1, Optional.of(capability))
                .job("c1/victims", "q1", 0, cpuMemory(1, 1), 0)
                .pod(pod("c1/victims", "victim-0").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/victims", "victim-1").request(cpuMemory(1, 1)).runningOn("n1"))
                .pod(pod("c1/victims", "victim-2").request(cpuMemory(2, 2)).runningOn("n2"))
                .job("c1/reclaimer", "q2", 2, cpuMemory(1, 1), 3)
                .build();
    }

    private static List<String> evicted(SessionResult result) {
        return result.evictions().stream().map(eviction -> eviction.task().toString()).toList();
    }
}
