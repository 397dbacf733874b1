package dev.muster.graph;

import static dev.muster.graph.Nodes.id;
import static dev.muster.graph.Nodes.ids;
import static java.time.Duration.ofMinutes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableMap;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CriticalPathTest {
    // a(2) -> b(5) -> d(1), a -> c(3) -> d, and e(4) on its own
    private static final JobGraph GRAPH = JobGraph.builder()
            .node("a").node("b").node("c").node("d").node("e")
            .edge("a", "b").edge("a", "c").edge("b", "d").edge("c", "d")
            .build();
    private static final Map<NodeId, Duration> DURATIONS = ImmutableMap.of(
            id("a"), ofMinutes(2), id("b"), ofMinutes(5), id("c"), ofMinutes(3), id("d"), ofMinutes(1), id("e"), ofMinutes(4));

    @Test
    void remainingIsTheNodeAndItsSlowestChainOfDescendants() {
        CriticalPath path = CriticalPath.of(GRAPH, DURATIONS);

        assertThat(path.remaining(id("d"))).isEqualTo(ofMinutes(1));
        assertThat(path.remaining(id("b"))).isEqualTo(ofMinutes(6));
        assertThat(path.remaining(id("c"))).isEqualTo(ofMinutes(4));
        assertThat(path.remaining(id("a"))).isEqualTo(ofMinutes(8));
        assertThat(path.remaining(id("e"))).isEqualTo(ofMinutes(4));
    }

    @Test
    void theCriticalPathIsTheSlowestChain() {
        CriticalPath path = CriticalPath.of(GRAPH, DURATIONS);

        assertThat(path.path()).containsExactlyElementsOf(ids("a", "b", "d"));
        assertThat(path.length()).isEqualTo(ofMinutes(8));
        assertThat(path.pathFrom(id("c"))).containsExactlyElementsOf(ids("c", "d"));
    }

    @Test
    void equalChainsAreBrokenByNodeId() {
        JobGraph graph = JobGraph.builder().node("root").node("y").node("x").edge("root", "y").edge("root", "x").build();

        CriticalPath path = CriticalPath.of(graph, ImmutableMap.of(id("root"), ofMinutes(1), id("x"), ofMinutes(2), id("y"), ofMinutes(2)));

        assertThat(path.path()).containsExactlyElementsOf(ids("root", "x"));
    }

    @Test
    void longestFirstOrdersNodesForTheDagPlugin() {
        CriticalPath path = CriticalPath.of(GRAPH, DURATIONS);

        assertThat(GRAPH.nodes().stream().sorted(path.longestFirst()))
                .containsExactlyElementsOf(ids("a", "b", "c", "e", "d"));
    }

    @Test
    void finishedNodesCountAsZeroInARun() {
        // given a finished, b with one minute left
        GraphRun run = new GraphRun(GRAPH);
        run.markSucceeded(id("a"));
        run.markRunning(id("b"));

        // when
        CriticalPath path = CriticalPath.ofRun(run, ImmutableMap.of(
                id("b"), ofMinutes(1), id("c"), ofMinutes(3), id("d"), ofMinutes(1), id("e"), ofMinutes(4)));

        // then the chain through c is now the slowest
        assertThat(path.remaining(id("a"))).isEqualTo(ofMinutes(4));
        assertThat(path.pathFrom(id("a"))).containsExactlyElementsOf(ids("a", "c", "d"));
        assertThat(path.length()).isEqualTo(ofMinutes(4));
    }

    @Test
    void everyPendingNodeNeedsAnEstimate() {
        assertThatThrownBy(() -> CriticalPath.of(GRAPH, ImmutableMap.of(id("a"), ofMinutes(1), id("c"), ofMinutes(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no duration estimate for [b, d, e]");
    }

    @Test
    void estimatesForUnknownNodesAreRejected() {
        GraphRun run = new GraphRun(JobGraph.builder().node("a").build());

        assertThatThrownBy(() -> CriticalPath.ofRun(run, ImmutableMap.of(id("a"), ofMinutes(1), id("z"), ofMinutes(1))))
                .hasMessage("durations for unknown nodes: [z]");
    }

    @Test
    void negativeEstimatesAreRejected() {
        JobGraph graph = JobGraph.builder().node("a").build();

        assertThatThrownBy(() -> CriticalPath.of(graph, ImmutableMap.of(id("a"), ofMinutes(-1))))
                .hasMessage("node a: negative duration PT-1M");
    }

    @Test
    void anEmptyGraphHasAnEmptyPath() {
        CriticalPath path = CriticalPath.of(JobGraph.builder().build(), ImmutableMap.of());

        assertThat(path.path()).isEmpty();
        assertThat(path.length()).isEqualTo(Duration.ZERO);
    }
}
