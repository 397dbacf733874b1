package dev.muster.engine.plugins.proportion;

import static dev.muster.engine.testing.ClusterScenario.gpu;
import static dev.muster.engine.testing.ClusterScenario.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Work-conserving fair share ({@code lend-idle-share}) and taking loans back ({@code reclaim},
 * {@code min-loan-runtime}). Nodes of 8 GPUs; queues a and b weigh the same.
 */
class ProportionLendingTest {
    private static final Resources NODE = gpu(64, 512, 8);
    private static final Resources POD = gpu(6, 56, 1);
    private static final Instant NOW = TestingScheduler.CLOCK.instant();

    private static final String CONFIG = """
            actions: "allocate, reclaim"
            tiers:
            - plugins:
              - name: gang
                enablePreemptable: false
              - name: proportion
                arguments: {lend-idle-share: %s, min-loan-runtime: %s}
              - name: predicates
            """;

    /** b's gang of 9 one-GPU pods needs more GPUs than the cluster has; a could use them all. */
    private static ClusterSnapshot unplaceableOwner() {
        return ClusterScenario.builder()
                .node("n1", NODE)
                .queue("a", 1).queue("b", 1)
                .job("ns/a-job", "a", 1, POD, 8)
                .job("ns/b-wide", "b", 9, POD, 9)
                .build();
    }

    @Test
    void volcanoKeepsAQueueAtItsDeservedShareWhileTheOtherCannotUseItsOwn() {
        // when
        SessionResult result = TestingScheduler.withConfig(CONFIG.formatted("false", "0s")).runOnce(unplaceableOwner());

        // then: a deserves 4 of the 8 GPUs and gets 4; b's gang never fits; 4 GPUs idle
        assertThat(result.binds()).hasSize(4);
    }

    @Test
    void aQueueBorrowsTheShareAnotherQueueCannotUse() {
        // when
        SessionResult result = TestingScheduler.withConfig(CONFIG.formatted("true", "0s")).runOnce(unplaceableOwner());

        // then
        assertThat(result.binds()).hasSize(8);
        assertThat(result.binds().keySet()).allMatch(task -> task.name().startsWith("a-job-"));
    }

    private static ClusterSnapshot loanedOut(Instant started, int ownerGang) {
        ClusterScenario.Builder builder = ClusterScenario.builder()
                .node("n1", NODE)
                .queue("a", 1).queue("b", 1)
                .job("ns/a-job", "a", 1, POD, 0, PodGroupPhase.RUNNING, 0);
        for (int i = 0; i < 8; i++) {
            builder.pod(pod("ns/a-job", "a-job-" + i).request(POD).runningOn("n1").startedAt(started));
        }
        return builder.job("ns/b-job", "b", ownerGang, POD, ownerGang).build();
    }

    @Test
    void theOwnerReclaimsItsShareFromTheLoans() {
        // given: a holds all 8 GPUs since an hour ago; b asks for 4, its deserved share
        ClusterSnapshot snapshot = loanedOut(NOW.minus(Duration.ofHours(1)), 4);

        // when
        SessionResult result = TestingScheduler.withConfig(CONFIG.formatted("true", "10m")).runOnce(snapshot);

        // then: exactly the 4 GPUs b needs are taken back, all from a
        assertThat(result.evictions()).hasSize(4);
        assertThat(result.evictions()).allMatch(eviction -> eviction.task().name().startsWith("a-job-"));
    }

    @Test
    void aLoanYoungerThanTheMinimumRunTimeIsNotReclaimed() {
        // given: a's pods started 5 minutes ago
        ClusterSnapshot snapshot = loanedOut(NOW.minus(Duration.ofMinutes(5)), 4);

        // when
        SessionResult result = TestingScheduler.withConfig(CONFIG.formatted("true", "10m")).runOnce(snapshot);

        // then
        assertThat(result.evictions()).isEmpty();
    }

    @Test
    void noLoanIsReclaimedForAnOwnerThatWouldStillNotFit() {
        // given: b's gang of 9 needs more than the node has, loans included
        ClusterSnapshot snapshot = loanedOut(NOW.minus(Duration.ofHours(1)), 9);

        // when
        SessionResult result = TestingScheduler.withConfig(CONFIG.formatted("true", "10m")).runOnce(snapshot);

        // then
        assertThat(result.evictions()).isEmpty();
        assertThat(result.binds()).doesNotContainKey(new TaskId("ns", "b-job-0"));
    }

    /** Issue 18's tiers: gang first, so that where it protects no gang the second tier's proportion chooses. */
    private static final String TIERED = """
            actions: "allocate, reclaim"
            tiers:
            - plugins:
              - name: gang
                enablePreemptable: false
            - plugins:
              - name: proportion
                arguments: {lend-idle-share: true, min-loan-runtime: 10m}
              - name: predicates
            """;

    /** Adds a one-pod job of queue a running on the node since {@code age} ago. */
    private static ClusterScenario.Builder loan(ClusterScenario.Builder builder, String name, Resources request, String node, Duration age) {
        return builder.job("ns/" + name, "a", 1, request, 0, PodGroupPhase.RUNNING, 0)
                .pod(pod("ns/" + name, name + "-0").request(request).runningOn(node).startedAt(NOW.minus(age)));
    }

    @Test
    void theYoungestLoansAreReclaimedFirst() {
        // given: a's jobs 0-3 started three hours ago, 4-7 an hour ago; b asks for 4 GPUs
        ClusterScenario.Builder builder = ClusterScenario.builder().node("n1", NODE).queue("a", 1).queue("b", 1);
        for (int i = 0; i < 8; i++) {
            loan(builder, "a" + i, POD, "n1", i < 4 ? Duration.ofHours(3) : Duration.ofHours(1));
        }
        ClusterSnapshot snapshot = builder.job("ns/b-job", "b", 4, POD, 4).build();

        // when
        SessionResult result = TestingScheduler.withConfig(TIERED).runOnce(snapshot);

        // then: the four runs that lose an hour, not the four that would lose three
        assertThat(result.evictions()).extracting(eviction -> eviction.task().name())
                .containsExactlyInAnyOrder("a4-0", "a5-0", "a6-0", "a7-0");
    }

    @Test
    void noLoanIsReclaimedThatWouldTakeItsQueueBelowItsShare() {
        // given: a holds 10 of 16 GPUs (an 8-GPU pod on n1, two 1-GPU pods on n2), b holds 6 on n2 and
        // asks for 2 more: both deserve 8, so a lends 2
        ClusterScenario.Builder builder = ClusterScenario.builder()
                .node("n1", NODE).node("n2", NODE)
                .queue("a", 1).queue("b", 1);
        loan(builder, "a-big", POD.multiply(8), "n1", Duration.ofHours(1));
        loan(builder, "a-small", POD, "n2", Duration.ofHours(2));
        loan(builder, "a-other", POD, "n2", Duration.ofHours(2));
        builder.job("ns/b-running", "b", 1, POD, 0, PodGroupPhase.RUNNING, 0);
        for (int i = 0; i < 6; i++) {
            builder.pod(pod("ns/b-running", "b-running-" + i).request(POD).runningOn("n2").startedAt(NOW.minus(Duration.ofHours(1))));
        }
        ClusterSnapshot snapshot = builder.job("ns/b-job", "b", 1, POD.multiply(2), 1).build();

        // when
        SessionResult result = TestingScheduler.withConfig(TIERED).runOnce(snapshot);

        // then: n1 would fit b's pod once a-big is gone, but that takes a from 10 to 2 GPUs; the two
        // one-GPU loans on n2 take it to 8, its share
        assertThat(result.evictions()).extracting(eviction -> eviction.task().name())
                .containsExactlyInAnyOrder("a-small-0", "a-other-0");
    }
}
