package dev.muster.engine.plugins.proportion;

import static dev.muster.engine.testing.ClusterScenario.gpu;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Resources;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import org.junit.jupiter.api.Test;

/**
 * A waiting gang's reason names what blocks it first (issue 18, item 5): a limit set on its queue (its
 * capability, what other queues' guarantees leave it), else no node with room (which resource, how
 * close the best nodes come), else a deserved share that other queues' demand sets (naming them); it
 * never reads as a quota when the cluster is simply full.
 * Nodes of 8 GPUs.
 */
class BindingConstraintReasonTest {
    private static final Resources NODE = gpu(64, 512, 8);
    private static final Resources ONE_GPU = gpu(6, 56, 1);

    private static final String ALLOCATE = """
            actions: "allocate"
            tiers:
            - plugins:
              - name: gang
              - name: proportion
              - name: predicates
            """;

    private static final String ENQUEUE_ALLOCATE = """
            actions: "enqueue, allocate"
            tiers:
            - plugins:
              - name: gang
              - name: proportion
                arguments: {admit-within-deserved: true}
              - name: predicates
            """;

    private static String reason(SessionResult result, String job) {
        return result.jobs().get(JobId.parse(job)).reason().orElseThrow();
    }

    /** One queue: n1 runs a 4-GPU pod, n2 an 8-GPU pod; a gang of one 8-GPU pod waits. */
    private static ClusterScenario.Builder oneQueueFullCluster() {
        return ClusterScenario.builder()
                .node("n1", NODE).node("n2", NODE)
                .queue("default", 1)
                .job("ns/running", "default", 1, ONE_GPU, 0, PodGroupPhase.RUNNING, 0)
                .running("ns/running", "half", ONE_GPU.multiply(4), "n1")
                .running("ns/running", "whole", ONE_GPU.multiply(8), "n2")
                .minResources("ns/running", ONE_GPU.multiply(12));
    }

    @Test
    void aGangOnAFullClusterOfOneQueueWaitsForRoomOnTheNodesNotForItsQueue() {
        // given
        ClusterSnapshot snapshot = oneQueueFullCluster().job("ns/big", "default", 1, ONE_GPU.multiply(8), 1).build();

        // when
        SessionResult result = TestingScheduler.withConfig(ALLOCATE).runOnce(snapshot);

        // then
        assertThat(reason(result, "ns/big"))
                .contains("0/2 nodes are available: ")
                .contains("2 Insufficient nvidia.com/gpu (asks 8, the closest node has 4 free)")
                .doesNotContain("deserved").doesNotContain("queue default");
    }

    @Test
    void aGangNotAdmittedOnAFullClusterOfOneQueueIsToldNoNodeHasRoom() {
        // given: admission within the deserved share, which for the only queue is the whole cluster
        ClusterSnapshot snapshot = oneQueueFullCluster()
                .job("ns/big", "default", 1, ONE_GPU.multiply(8), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/big", ONE_GPU.multiply(8))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(ENQUEUE_ALLOCATE).runOnce(snapshot);

        // then
        assertThat(result.jobs().get(JobId.parse("ns/big")).phase()).isEqualTo(PodGroupPhase.PENDING);
        assertThat(reason(result, "ns/big"))
                .startsWith("not admitted to queue default: 0/2 nodes are available: ")
                .contains("2 Insufficient nvidia.com/gpu (asks 8, the closest node has 4 free)")
                .doesNotContain("deserved share").doesNotContain("capability");
    }

    @Test
    void aGangNotAdmittedWhileTheNodesHaveRoomIsToldWhatTheClusterHas() {
        // given: n2 is idle, but what the queue runs and has admitted leaves the 16 GPUs no room for 8 more
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", NODE).node("n2", NODE)
                .queue("default", 1)
                .job("ns/running", "default", 1, ONE_GPU, 0, PodGroupPhase.RUNNING, 0)
                .running("ns/running", "whole", ONE_GPU.multiply(8), "n1")
                .minResources("ns/running", ONE_GPU.multiply(8))
                .job("ns/admitted", "default", 1, ONE_GPU.multiply(4), 1, PodGroupPhase.INQUEUE, 0)
                .minResources("ns/admitted", ONE_GPU.multiply(4))
                .job("ns/big", "default", 1, ONE_GPU.multiply(8), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/big", ONE_GPU.multiply(8))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(ENQUEUE_ALLOCATE).runOnce(snapshot);

        // then
        assertThat(result.jobs().get(JobId.parse("ns/big")).phase()).isEqualTo(PodGroupPhase.PENDING);
        assertThat(reason(result, "ns/big"))
                .contains("would take queue default over what the cluster has")
                .contains("nvidia.com/gpu 20 > 16")
                .doesNotContain("nodes are available");
    }

    @Test
    void aQueueAtItsCapabilityOnAFullClusterIsToldOfItsCapabilityFirst() {
        // given: the queue may use 12 GPUs and runs 12; no node has room for 8 more either
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", NODE).node("n2", NODE)
                .queue("capped", queue -> queue.capability(Resources.EMPTY.withScalar(Resources.GPU, 12_000)))
                .job("ns/running", "capped", 1, ONE_GPU, 0, PodGroupPhase.RUNNING, 0)
                .running("ns/running", "half", ONE_GPU.multiply(4), "n1")
                .running("ns/running", "whole", ONE_GPU.multiply(8), "n2")
                .job("ns/big", "capped", 1, ONE_GPU.multiply(8), 1)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(ALLOCATE).runOnce(snapshot);

        // then
        assertThat(reason(result, "ns/big"))
                .contains("queue capped would go over its capability: nvidia.com/gpu 20 > 12")
                .doesNotContain("nodes are available");
    }

    @Test
    void aQueueAtWhatAnotherQueuesGuaranteeLeavesItOnAFullClusterIsToldOfTheGuarantee() {
        // given: reserved is guaranteed 8 of the 16 GPUs, so shared may use 8; it runs 4 on each node
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", NODE).node("n2", NODE)
                .queue("shared", 1)
                .queue("reserved", queue -> queue.guarantee(Resources.EMPTY.withScalar(Resources.GPU, 8_000)))
                .job("ns/running", "shared", 1, ONE_GPU, 0, PodGroupPhase.RUNNING, 0)
                .running("ns/running", "left", ONE_GPU.multiply(4), "n1")
                .running("ns/running", "right", ONE_GPU.multiply(4), "n2")
                .job("ns/big", "shared", 1, ONE_GPU.multiply(8), 1)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(ALLOCATE).runOnce(snapshot);

        // then
        assertThat(reason(result, "ns/big"))
                .contains("queue shared would go over what the other queues' guarantees leave it: nvidia.com/gpu 16 > 8")
                .doesNotContain("nodes are available");
    }

    @Test
    void aGangNotAdmittedOverItsShareOnFullNodesIsToldNoNodeHasRoomFirst() {
        // given: research runs 8 GPUs on n1, production 8 on n2 and wants 8 more; research's next trial
        // would go over its half, and no node has room for it anyway
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", NODE).node("n2", NODE)
                .queue("research", 1).queue("production", 1)
                .job("ns/trials", "research", 1, ONE_GPU, 0, PodGroupPhase.RUNNING, 0)
                .running("ns/trials", "trial", ONE_GPU.multiply(8), "n1")
                .minResources("ns/trials", ONE_GPU.multiply(8))
                .job("ns/serving", "production", 1, ONE_GPU, 0, PodGroupPhase.RUNNING, 0)
                .running("ns/serving", "replica", ONE_GPU.multiply(8), "n2")
                .minResources("ns/serving", ONE_GPU.multiply(8))
                .job("ns/retrain", "production", 1, ONE_GPU.multiply(8), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/retrain", ONE_GPU.multiply(8))
                .job("ns/more-trials", "research", 1, ONE_GPU.multiply(8), 1, PodGroupPhase.PENDING, 0)
                .minResources("ns/more-trials", ONE_GPU.multiply(8))
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(ENQUEUE_ALLOCATE).runOnce(snapshot);

        // then
        assertThat(reason(result, "ns/more-trials"))
                .startsWith("not admitted to queue research: 0/2 nodes are available: ")
                .contains("2 Insufficient nvidia.com/gpu (asks 8, no node has any free)")
                .doesNotContain("deserved share");
    }

    @Test
    void aShareThatAnotherQueuesDemandSetsNamesThatQueue() {
        // given: research runs 8 GPUs on n1 and wants 4 more; production's gang of 9 cannot be placed,
        // but its demand gives it half the cluster, so n2 stays idle
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", NODE).node("n2", NODE)
                .queue("research", 1).queue("production", 1)
                .job("ns/trials", "research", 1, ONE_GPU, 0, PodGroupPhase.RUNNING, 0)
                .running("ns/trials", "trial", ONE_GPU.multiply(8), "n1")
                .job("ns/more-trials", "research", 4, ONE_GPU, 4)
                .job("ns/training", "production", 9, ONE_GPU, 9)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(ALLOCATE).runOnce(snapshot);

        // then
        assertThat(result.binds()).isEmpty();
        assertThat(reason(result, "ns/more-trials"))
                .contains("queue research (weight 1) would go over its deserved share: nvidia.com/gpu 9 > 8")
                .contains("the rest is deserved by queue production (weight 1, nvidia.com/gpu 8)")
                .doesNotContain("nodes are available");
    }

    @Test
    void aQueueAtItsCapabilitySaysSoOnAnIdleCluster() {
        // given: 16 idle GPUs; the queue may use 4
        ClusterSnapshot snapshot = ClusterScenario.builder()
                .node("n1", NODE).node("n2", NODE)
                .queue("small", queue -> queue.capability(Resources.EMPTY.withScalar(Resources.GPU, 4000)))
                .job("ns/wide", "small", 8, ONE_GPU, 8)
                .build();

        // when
        SessionResult result = TestingScheduler.withConfig(ALLOCATE).runOnce(snapshot);

        // then
        assertThat(result.binds()).isEmpty();
        assertThat(reason(result, "ns/wide"))
                .startsWith("4/8 tasks of the gang fit")
                .contains("queue small would go over its capability: nvidia.com/gpu 5 > 4")
                .doesNotContain("nodes are available");
    }
}
