package dev.muster.engine.actions;

import static dev.muster.engine.testing.ClusterScenario.cpuMemory;
import static dev.muster.engine.testing.ClusterScenario.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import org.junit.jupiter.api.Test;

class BackfillActionTest {
    private static final String TIERS = """
            tiers:
            - plugins:
              - name: priority
              - name: gang
              - name: conformance
            - plugins:
              - name: drf
              - name: predicates
            """;
    private static final TestingScheduler BACKFILL = TestingScheduler.withConfig("actions: \"backfill\"\n" + TIERS);

    @Test
    void bindsABestEffortTaskToTheFirstFeasibleNode() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n2", cpuMemory(1, 1))
                .node("n1", cpuMemory(1, 1))
                .job("ml/be", "default", 1, Resources.EMPTY, 1)
                .build();

        // when
        SessionResult result = BACKFILL.runOnce(scenario);

        // then
        assertThat(result.binds()).containsOnlyKeys(TaskId.parse("ml/be-0")).containsEntry(TaskId.parse("ml/be-0"), new NodeName("n1"));
    }

    @Test
    void leavesTasksThatRequestResourcesToAllocate() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(4, 4))
                .job("ml/sized", "default", 1, cpuMemory(1, 1), 1)
                .build();

        // when
        SessionResult result = BACKFILL.runOnce(scenario);

        // then
        assertThat(result.binds()).isEmpty();
    }

    @Test
    void skipsJobsThatAreNotAdmitted() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .job("ml/waiting", "default", 1, Resources.EMPTY, 1, PodGroupPhase.PENDING, 0)
                .build();

        // when
        SessionResult result = BACKFILL.runOnce(scenario);

        // then
        assertThat(result.binds()).isEmpty();
    }

    @Test
    void respectsTheNodesPodLimit() {
        // given: n1 is full by pod count
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(4, 4), 1)
                .node("n2", cpuMemory(4, 4), 1)
                .job("ml/busy", "default", 1, Resources.EMPTY, 0)
                .pod(pod("ml/busy", "busy").runningOn("n1"))
                .job("ml/be", "default", 1, Resources.EMPTY, 1)
                .build();

        // when
        SessionResult result = BACKFILL.runOnce(scenario);

        // then
        assertThat(result.binds()).containsEntry(TaskId.parse("ml/be-0"), new NodeName("n2"));
    }

    @Test
    void bindsAGangOnceItIsReady() {
        // given
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .job("ml/pair", "default", 2, Resources.EMPTY, 2)
                .build();

        // when
        SessionResult result = BACKFILL.runOnce(scenario);

        // then
        assertThat(result.binds()).containsOnlyKeys(TaskId.parse("ml/pair-0"), TaskId.parse("ml/pair-1"));
    }

    @Test
    void doesNotBindAGangThatStaysShort() {
        // given: the third gang member requests resources and is left to allocate
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(1, 1))
                .job("ml/mixed", "default", 3, Resources.EMPTY, 2)
                .pod(pod("ml/mixed", "sized").request(cpuMemory(1, 1)))
                .build();

        // when
        SessionResult result = BACKFILL.runOnce(scenario);

        // then
        assertThat(result.binds()).isEmpty();
    }

    @Test
    void placesAPipelinedBestEffortTaskAtOnce() {
        // given: preempt pipelines a best-effort preemptor onto the slot of the pod it evicts
        TestingScheduler scheduler = TestingScheduler.withConfig("actions: \"preempt, backfill\"\n" + TIERS);
        var scenario = ClusterScenario.builder()
                .node("n1", cpuMemory(4, 4), 1)
                .job("ml/low", "default", 0, Resources.EMPTY, 0, PodGroupPhase.INQUEUE, 10)
                .pod(pod("ml/low", "victim").runningOn("n1"))
                .job("ml/high", "default", 1, Resources.EMPTY, 1, PodGroupPhase.INQUEUE, 1000)
                .build();

        // when
        SessionResult result = scheduler.runOnce(scenario);

        // then: backfill takes the reservation back and binds it
        assertThat(result.evictions()).extracting(eviction -> eviction.task().toString()).containsExactly("ml/victim");
        assertThat(result.binds()).containsEntry(TaskId.parse("ml/high-0"), new NodeName("n1"));
        assertThat(result.pipelined()).isEmpty();
    }

    @Test
    void theFirstQueueInQueueOrderGetsTheLastPodSlot() {
        // given: one pod slot, a best-effort task in each of two queues (q1 created first)
        var scenario = lastSlotScenario();

        // when
        SessionResult result = BACKFILL.runOnce(scenario);

        // then
        assertThat(result.binds()).containsOnlyKeys(TaskId.parse("b/second-0"));
    }

    @Test
    void sameSnapshotGivesSameDecisions() {
        ClusterSnapshot scenario = lastSlotScenario();

        assertThat(BACKFILL.runOnce(scenario)).isEqualTo(BACKFILL.runOnce(scenario));
    }

    private static ClusterSnapshot lastSlotScenario() {
        return ClusterScenario.builder()
                .node("n1", cpuMemory(4, 4), 1)
                .queue("q1", 1)
                .queue("q2", 1)
                .job("a/first", "q2", 1, Resources.EMPTY, 1)
                .job("b/second", "q1", 1, Resources.EMPTY, 1)
                .build();
    }
}
