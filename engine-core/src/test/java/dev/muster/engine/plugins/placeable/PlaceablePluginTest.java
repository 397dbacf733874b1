package dev.muster.engine.plugins.placeable;

import static dev.muster.engine.testing.ClusterScenario.gpu;
import static dev.muster.engine.testing.ClusterScenario.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import org.junit.jupiter.api.Test;

/** Admission by what can be placed now, on nodes of 8 GPUs, 64 cores and 512 GiB. */
class PlaceablePluginTest {
    private static final Resources NODE = gpu(64, 512, 8);
    private static final Resources WHOLE_NODE_POD = gpu(48, 448, 8);
    private static final Resources HALF_NODE_POD = gpu(24, 224, 4);

    private static final String PLACEABLE = """
            actions: "enqueue, allocate"
            tiers:
            - plugins:
              - name: gang
              - name: placeable
              - name: predicates
            """;
    private static final String OVERCOMMIT = PLACEABLE.replace("name: placeable", "name: overcommit");

    @Test
    void aGangOfWholeNodePodsIsNotAdmittedWhenTheIdleGpusAreSpreadOverNodes() {
        // given: 8 GPUs idle, 4 on each node; the gang needs one pod of 8 GPUs
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", NODE).node("n2", NODE)
                .job("ns/run1", "default", 1, HALF_NODE_POD, 0, PodGroupPhase.RUNNING, 0)
                .running("ns/run1", "run1-0", HALF_NODE_POD, "n1")
                .job("ns/run2", "default", 1, HALF_NODE_POD, 0, PodGroupPhase.RUNNING, 0)
                .running("ns/run2", "run2-0", HALF_NODE_POD, "n2")
                .job("ns/wide", "default", 1, WHOLE_NODE_POD, 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/wide", WHOLE_NODE_POD)
                .job("ns/half", "default", 1, HALF_NODE_POD, 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/half", HALF_NODE_POD)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(PLACEABLE).runOnce(snapshot);

        // then: the wide gang waits with the reason; the half-node job, created later, is admitted and placed
        assertThat(result.jobs().get(JobId.parse("ns/wide")).phase()).isEqualTo(PodGroupPhase.PENDING);
        assertThat(result.jobs().get(JobId.parse("ns/wide")).reason()).hasValueSatisfying(reason -> assertThat(reason)
                .isEqualTo("not admitted to queue default: no room to place the gang now: it needs 1 pod of up to"
                        + " cpu 48, memory 448Gi, nvidia.com/gpu 8, and 0 nodes have room for the largest;"
                        + " the closest is n1, with cpu 40, memory 288Gi, nvidia.com/gpu 4 idle"));
        assertThat(result.binds()).containsOnlyKeys(new TaskId("ns", "half-0"));
    }

    @Test
    void overcommitAdmitsTheSameGangWhichThenHoldsTheBudget() {
        // given: the snapshot of the test above; overcommit counts GPUs, not nodes
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", NODE).node("n2", NODE)
                .job("ns/run1", "default", 1, HALF_NODE_POD, 0, PodGroupPhase.RUNNING, 0)
                .running("ns/run1", "run1-0", HALF_NODE_POD, "n1")
                .job("ns/run2", "default", 1, HALF_NODE_POD, 0, PodGroupPhase.RUNNING, 0)
                .running("ns/run2", "run2-0", HALF_NODE_POD, "n2")
                .job("ns/wide", "default", 1, WHOLE_NODE_POD, 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/wide", WHOLE_NODE_POD)
                .job("ns/half", "default", 1, HALF_NODE_POD, 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/half", HALF_NODE_POD)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(OVERCOMMIT).runOnce(snapshot);

        // then: the unplaceable gang is admitted (8 + 4 GPUs ≤ 16 × 1.2 − 8 used) and placed nowhere
        assertThat(result.jobs().get(JobId.parse("ns/wide")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
        assertThat(result.binds()).doesNotContainKey(new TaskId("ns", "wide-0"));
    }

    @Test
    void gangsAdmittedInTheSameSessionTakeTheRoomTheyWillUse() {
        // given: one idle node and two gangs of one whole-node pod each
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", NODE)
                .job("ns/first", "default", 1, WHOLE_NODE_POD, 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/first", WHOLE_NODE_POD)
                .job("ns/second", "default", 1, WHOLE_NODE_POD, 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/second", WHOLE_NODE_POD)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(PLACEABLE).runOnce(snapshot);

        // then
        assertThat(result.jobs().get(JobId.parse("ns/first")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
        assertThat(result.jobs().get(JobId.parse("ns/second")).phase()).isEqualTo(PodGroupPhase.PENDING);
    }

    @Test
    void anAdmittedJobThatWasNotPlacedHoldsNoRoomInTheNextSession() {
        // given: a gang admitted earlier that needs two whole nodes, and one idle node
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", NODE)
                .job("ns/admitted", "default", 2, WHOLE_NODE_POD, 2, PodGroupPhase.INQUEUE, 0)
                .minResources("ns/admitted", WHOLE_NODE_POD.multiply(2))
                .job("ns/fits", "default", 1, WHOLE_NODE_POD, 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/fits", WHOLE_NODE_POD)
                .build();

        // when
        SessionResult placeable = TestingScheduler.withConfig(PLACEABLE).runOnce(snapshot);
        SessionResult overcommit = TestingScheduler.withConfig(OVERCOMMIT).runOnce(snapshot);

        // then: overcommit's budget (8 × 1.2 GPUs) is held by the admitted gang; placeable admits and places
        assertThat(placeable.binds()).containsOnlyKeys(new TaskId("ns", "fits-0"));
        assertThat(overcommit.jobs().get(JobId.parse("ns/fits")).phase()).isEqualTo(PodGroupPhase.PENDING);
        assertThat(overcommit.binds()).isEmpty();
    }

    @Test
    void aJobOfAQueueUnderItsShareIsAdmittedOntoAnotherQueuesLoansForReclaim() {
        // given: queue a borrowed the whole node; b, with the same weight, asks for half of it
        String config = """
                actions: "enqueue, allocate, reclaim"
                tiers:
                - plugins:
                  - name: gang
                    enablePreemptable: false
                  - name: placeable
                  - name: proportion
                    arguments: {lend-idle-share: true}
                  - name: predicates
                """;
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", NODE)
                .queue("a", 1).queue("b", 1)
                .job("ns/a-run", "a", 1, HALF_NODE_POD, 0, PodGroupPhase.RUNNING, 0)
                .pod(pod("ns/a-run", "a-run-0").request(HALF_NODE_POD).runningOn("n1"))
                .pod(pod("ns/a-run", "a-run-1").request(HALF_NODE_POD).runningOn("n1"))
                .job("ns/b-new", "b", 1, HALF_NODE_POD, 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/b-new", HALF_NODE_POD)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(config).runOnce(snapshot);

        // then: admitted, and reclaim evicts one of a's pods for it
        assertThat(result.jobs().get(JobId.parse("ns/b-new")).phase()).isEqualTo(PodGroupPhase.INQUEUE);
        assertThat(result.evictions()).hasSize(1);
    }
}
