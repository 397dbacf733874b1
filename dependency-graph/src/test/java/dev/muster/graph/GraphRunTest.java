package dev.muster.graph;

import static dev.muster.graph.Nodes.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GraphRunTest {
    private enum Expected {
        READY,
        WAITING,
        SKIPPED
    }

    static Stream<Arguments> conditions() {
        return Stream.of(
                Arguments.of("running waits for a pending parent", Condition.RUNNING, NodeState.PENDING, Expected.WAITING),
                Arguments.of("running is met by a running parent", Condition.RUNNING, NodeState.RUNNING, Expected.READY),
                Arguments.of("running is met by a parent that already succeeded", Condition.RUNNING, NodeState.SUCCEEDED, Expected.READY),
                Arguments.of("running is never met by a failed parent", Condition.RUNNING, NodeState.FAILED, Expected.SKIPPED),
                Arguments.of("running is never met by a skipped parent", Condition.RUNNING, NodeState.SKIPPED, Expected.SKIPPED),
                Arguments.of("succeeded waits for a running parent", Condition.SUCCEEDED, NodeState.RUNNING, Expected.WAITING),
                Arguments.of("succeeded is met by success", Condition.SUCCEEDED, NodeState.SUCCEEDED, Expected.READY),
                Arguments.of("succeeded is never met by failure", Condition.SUCCEEDED, NodeState.FAILED, Expected.SKIPPED),
                Arguments.of("succeeded is never met by a skip", Condition.SUCCEEDED, NodeState.SKIPPED, Expected.SKIPPED),
                Arguments.of("failed waits for a running parent", Condition.FAILED, NodeState.RUNNING, Expected.WAITING),
                Arguments.of("failed is met by failure", Condition.FAILED, NodeState.FAILED, Expected.READY),
                Arguments.of("failed is never met by success", Condition.FAILED, NodeState.SUCCEEDED, Expected.SKIPPED),
                Arguments.of("completed waits for a running parent", Condition.COMPLETED, NodeState.RUNNING, Expected.WAITING),
                Arguments.of("completed is met by success", Condition.COMPLETED, NodeState.SUCCEEDED, Expected.READY),
                Arguments.of("completed is met by failure", Condition.COMPLETED, NodeState.FAILED, Expected.READY),
                Arguments.of("completed is never met by a skip", Condition.COMPLETED, NodeState.SKIPPED, Expected.SKIPPED),
                Arguments.of("succeeded-or-skipped is met by a skip", Condition.SUCCEEDED_OR_SKIPPED, NodeState.SKIPPED, Expected.READY),
                Arguments.of("succeeded-or-skipped is never met by failure", Condition.SUCCEEDED_OR_SKIPPED, NodeState.FAILED, Expected.SKIPPED),
                Arguments.of("done is met by failure", Condition.DONE, NodeState.FAILED, Expected.READY),
                Arguments.of("done is met by a skip", Condition.DONE, NodeState.SKIPPED, Expected.READY),
                Arguments.of("done waits for a running parent", Condition.DONE, NodeState.RUNNING, Expected.WAITING));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("conditions")
    void childReadinessFollowsTheEdgeCondition(String name, Condition condition, NodeState parentState, Expected expected) {
        // given
        GraphRun run = new GraphRun(JobGraph.builder().node("parent").node("child").edge("parent", "child", condition).build());

        // when
        reach(run, "parent", parentState);

        // then
        assertThat(verdict(run, "child")).isEqualTo(expected);
    }

    static Stream<Arguments> joins() {
        return Stream.of(
                Arguments.of("all waits while one parent runs", Join.ALL, NodeState.SUCCEEDED, NodeState.RUNNING, Expected.WAITING),
                Arguments.of("all is ready once every parent succeeded", Join.ALL, NodeState.SUCCEEDED, NodeState.SUCCEEDED, Expected.READY),
                Arguments.of("all is skipped as soon as one parent failed", Join.ALL, NodeState.FAILED, NodeState.RUNNING, Expected.SKIPPED),
                Arguments.of("any is ready once one parent succeeded", Join.ANY, NodeState.SUCCEEDED, NodeState.RUNNING, Expected.READY),
                Arguments.of("any waits for the other parent when one failed", Join.ANY, NodeState.FAILED, NodeState.RUNNING, Expected.WAITING),
                Arguments.of("any is ready when the other parent succeeds after one failed", Join.ANY, NodeState.FAILED, NodeState.SUCCEEDED, Expected.READY),
                Arguments.of("any is skipped when no parent can succeed any more", Join.ANY, NodeState.FAILED, NodeState.SKIPPED, Expected.SKIPPED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("joins")
    void childReadinessFollowsItsJoin(String name, Join join, NodeState first, NodeState second, Expected expected) {
        // given
        GraphRun run = new GraphRun(JobGraph.builder()
                .node("a").node("b").node("c", join)
                .edge("a", "c").edge("b", "c")
                .build());

        // when
        reach(run, "a", first);
        reach(run, "b", second);

        // then
        assertThat(verdict(run, "c")).isEqualTo(expected);
    }

    @Test
    void rootsAreReadyWhenTheRunStarts() {
        GraphRun run = new GraphRun(JobGraph.builder().node("b").node("a").node("c").edge("a", "c").build());

        assertThat(run.ready()).containsExactly(id("a"), id("b"));
        assertThat(run.waitingOn(id("c"))).extracting(Dependency::toString).containsExactly("a -> c (succeeded)");
    }

    @Test
    void anUpdateReportsTheNodesItReleases() {
        GraphRun run = new GraphRun(JobGraph.builder()
                .node("a").node("b").node("c").node("d")
                .edge("a", "b").edge("a", "c", Condition.RUNNING).edge("c", "d")
                .build());

        assertThat(run.markRunning(id("a")).ready()).containsExactly(id("c"));
        assertThat(run.markSucceeded(id("a")).ready()).containsExactly(id("b"));
        assertThat(run.ready()).containsExactly(id("b"), id("c"));
    }

    @Test
    void aHopelessNodeIsSkippedWithItsDescendantsAndEachReasonNamesTheParent() {
        // given a pipeline with an all_done cleanup step
        GraphRun run = new GraphRun(JobGraph.builder()
                .node("extract").node("transform").node("load").node("cleanup")
                .edge("extract", "transform").edge("transform", "load").edge("load", "cleanup", Condition.DONE)
                .build());
        run.markRunning(id("extract"));

        // when
        StateChanges changes = run.markFailed(id("extract"));

        // then
        assertThat(changes.skipped()).containsOnlyKeys(id("transform"), id("load"));
        assertThat(changes.ready()).containsExactly(id("cleanup"));
        assertThat(run.skipReason(id("transform"))).contains("extract failed, needed succeeded");
        assertThat(run.skipReason(id("load"))).contains("transform skipped, needed succeeded");
        assertThat(run.state(id("load"))).isEqualTo(NodeState.SKIPPED);
    }

    @Test
    void anAnyJoinIsSkippedOnlyWhenNoParentCanMeetItsCondition() {
        GraphRun run = new GraphRun(JobGraph.builder()
                .node("a").node("b").node("c", Join.ANY)
                .edge("a", "c").edge("b", "c", Condition.RUNNING)
                .build());

        run.markFailed(id("a"));
        StateChanges changes = run.markSkipped(id("b"), "when: false");

        assertThat(changes.skipped()).containsEntry(id("c"),
                "no parent can meet its condition: a failed, needed succeeded; b skipped, needed running");
        assertThat(run.skipReason(id("b"))).contains("when: false");
    }

    @Test
    void aReadyNodeWhoseRunningParentFailsIsSkippedBeforeItStarts() {
        // given Volcano's launch order: the child may start once the parent runs
        GraphRun run = new GraphRun(JobGraph.builder().node("ps").node("worker").edge("ps", "worker", Condition.RUNNING).build());
        run.markRunning(id("ps"));
        assertThat(run.ready()).containsExactly(id("worker"));

        // when
        run.markFailed(id("ps"));

        // then
        assertThat(run.ready()).isEmpty();
        assertThat(run.skipReason(id("worker"))).contains("ps failed, needed running");
    }

    @Test
    void anAnyJoinReleasedByOneParentWaitsAgainWhenThatParentLosesIt() {
        GraphRun run = new GraphRun(JobGraph.builder()
                .node("a").node("b").node("c", Join.ANY)
                .edge("a", "c", Condition.RUNNING).edge("b", "c")
                .build());
        run.markRunning(id("a"));
        assertThat(run.isReady(id("c"))).isTrue();

        run.markFailed(id("a"));

        assertThat(run.isReady(id("c"))).isFalse();
        assertThat(run.waitingOn(id("c"))).extracting(Dependency::parent).containsExactly(id("b"));
    }

    @Test
    void repeatingTheCurrentStateChangesNothing() {
        GraphRun run = new GraphRun(JobGraph.builder().node("a").node("b").edge("a", "b", Condition.RUNNING).build());
        run.markRunning(id("a"));

        assertThat(run.markRunning(id("a")).isEmpty()).isTrue();
        assertThat(run.ready()).containsExactly(id("b"));
    }

    @Test
    void aFinalStateIsFinal() {
        GraphRun run = new GraphRun(JobGraph.builder().node("a").build());
        run.markSucceeded(id("a"));

        assertThatThrownBy(() -> run.markRunning(id("a")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("node a: cannot go from succeeded to running");
        assertThatThrownBy(() -> run.update(id("a"), NodeState.PENDING))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRunIsFinishedWhenEveryNodeIsFinal() {
        GraphRun run = new GraphRun(JobGraph.builder().node("a").node("b").edge("a", "b").build());
        run.markRunning(id("a"));
        assertThat(run.isFinished()).isFalse();

        run.markFailed(id("a"));

        assertThat(run.isFinished()).isTrue();
        assertThat(run.skipped()).containsOnlyKeys(id("b"));
    }

    private static void reach(GraphRun run, String node, NodeState state) {
        switch (state) {
            case PENDING -> { }
            case RUNNING -> run.markRunning(id(node));
            case SUCCEEDED, FAILED -> {
                run.markRunning(id(node));
                run.update(id(node), state);
            }
            case SKIPPED -> run.markSkipped(id(node), "not needed");
        }
    }

    private static Expected verdict(GraphRun run, String node) {
        if (run.state(id(node)) == NodeState.SKIPPED) {
            return Expected.SKIPPED;
        }
        assertThat(run.state(id(node))).isEqualTo(NodeState.PENDING);
        return run.isReady(id(node)) ? Expected.READY : Expected.WAITING;
    }
}
