package dev.muster.graph;

import static dev.muster.graph.Nodes.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GraphBuilderTest {
    static Stream<Arguments> graphs() {
        return Stream.of(
                invalid("a chain is valid",
                        graph -> graph.node("a").node("b").node("c").edge("a", "b").edge("b", "c")),
                invalid("a self-edge is named",
                        graph -> graph.node("a").edge("a", "a"),
                        "self-edge on a"),
                invalid("a two-node cycle is named",
                        graph -> graph.node("a").node("b").edge("a", "b").edge("b", "a"),
                        "cycle: a -> b -> a"),
                invalid("a cycle starts at its smallest node",
                        graph -> graph.node("c").node("b").node("a").edge("c", "a").edge("a", "b").edge("b", "c"),
                        "cycle: a -> b -> c -> a"),
                invalid("the shortest cycle through the smallest node is named, with the whole component",
                        graph -> graph.node("a").node("b").node("c").node("d")
                                .edge("a", "b").edge("b", "c").edge("c", "d").edge("d", "a").edge("c", "a"),
                        "cycle: a -> b -> c -> a (strongly connected: a, b, c, d)"),
                invalid("every cycle is named, one per strongly connected component",
                        graph -> graph.node("a").node("b").node("c").node("d").node("e")
                                .edge("d", "c").edge("c", "d").edge("a", "b").edge("b", "a").edge("b", "e"),
                        "cycle: a -> b -> a",
                        "cycle: c -> d -> c"),
                invalid("an edge to an unknown node is named",
                        graph -> graph.node("a").node("b").edge("b", "x"),
                        "edge b -> x: unknown node 'x'"),
                invalid("an edge with two unknown ends names both",
                        graph -> graph.edge("x", "y"),
                        "edge x -> y: unknown node 'x'",
                        "edge x -> y: unknown node 'y'"),
                invalid("a node declared twice is named",
                        graph -> graph.node("a").node("a", Join.ANY),
                        "duplicate node 'a'"),
                invalid("two edges between the same nodes are named",
                        graph -> graph.node("a").node("b").edge("a", "b").edge("a", "b", Condition.FAILED),
                        "duplicate edge a -> b"),
                invalid("a cycle through an unknown node is not a cycle but an unknown node",
                        graph -> graph.node("a").edge("a", "x").edge("x", "a"),
                        "edge a -> x: unknown node 'x'",
                        "edge x -> a: unknown node 'x'"),
                invalid("every problem is reported at once",
                        graph -> graph.node("a").node("b").node("c").node("a")
                                .edge("c", "c").edge("a", "b").edge("b", "a").edge("b", "z"),
                        "duplicate node 'a'",
                        "self-edge on c",
                        "edge b -> z: unknown node 'z'",
                        "cycle: a -> b -> a"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("graphs")
    void validationNamesEveryProblem(String name, UnaryOperator<GraphBuilder> graph, String[] expected) {
        GraphBuilder builder = graph.apply(JobGraph.builder());

        assertThat(builder.validate()).extracting(GraphProblem::message).containsExactly(expected);
    }

    @Test
    void buildThrowsWithEveryProblem() {
        GraphBuilder builder = JobGraph.builder().node("a").node("b").edge("a", "b").edge("b", "a").edge("a", "x");

        assertThatThrownBy(builder::build)
                .isInstanceOfSatisfying(GraphException.class, exception -> assertThat(exception.problems()).hasSize(2))
                .hasMessage("""
                        invalid job graph: 2 problems
                          edge a -> x: unknown node 'x'
                          cycle: a -> b -> a""");
    }

    @Test
    void oneProblemFitsOnOneLine() {
        assertThatThrownBy(() -> JobGraph.builder().node("a").edge("a", "a").build())
                .hasMessage("invalid job graph: self-edge on a");
    }

    @Test
    void cycleProblemCarriesPathAndMembers() {
        GraphProblem problem = JobGraph.builder().node("x").node("y").edge("x", "y").edge("y", "x").validate().get(0);

        assertThat(problem).isInstanceOfSatisfying(GraphProblem.Cycle.class, cycle -> {
            assertThat(cycle.path()).containsExactly(id("x"), id("y"), id("x"));
            assertThat(cycle.members()).containsExactly(id("x"), id("y"));
        });
    }

    @Test
    void edgesMayNameNodesDeclaredLater() {
        JobGraph graph = JobGraph.builder().edge("a", "b").node("b").node("a").build();

        assertThat(graph.dependencies()).containsExactly(new Dependency(id("a"), id("b"), Condition.SUCCEEDED));
    }

    @Test
    void graphListsNodesAndEdgesByIdWhateverTheDeclarationOrder() {
        // given a diamond declared backwards
        JobGraph graph = JobGraph.builder()
                .node("d", Join.ANY).node("c").node("b").node("a")
                .edge("c", "d", Condition.FAILED).edge("b", "d").edge("a", "c").edge("a", "b", Condition.RUNNING)
                .build();

        // then
        assertThat(graph.nodes()).containsExactly(id("a"), id("b"), id("c"), id("d"));
        assertThat(graph.roots()).containsExactly(id("a"));
        assertThat(graph.leaves()).containsExactly(id("d"));
        assertThat(graph.parents(id("d"))).containsExactly(
                new Dependency(id("b"), id("d"), Condition.SUCCEEDED),
                new Dependency(id("c"), id("d"), Condition.FAILED));
        assertThat(graph.children(id("a"))).extracting(Dependency::toString)
                .containsExactly("a -> b (running)", "a -> c (succeeded)");
        assertThat(graph.join(id("d"))).isEqualTo(Join.ANY);
        assertThat(graph.join(id("a"))).isEqualTo(Join.ALL);
    }

    @Test
    void askingAboutAnUnknownNodeIsACallerMistake() {
        JobGraph graph = JobGraph.builder().node("a").build();

        assertThatThrownBy(() -> graph.parents(id("b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown node 'b'");
    }

    @Test
    void anEmptyGraphIsValid() {
        JobGraph graph = JobGraph.builder().build();

        assertThat(graph.nodes()).isEmpty();
        assertThat(graph.topologicalOrder().levels()).isEmpty();
    }

    @Test
    void aCycleThroughTwentyThousandNodesIsFoundWithoutOverflowingTheStack() {
        GraphBuilder builder = JobGraph.builder();
        int length = 20_000;
        for (int index = 0; index < length; index++) {
            builder.node("t" + index).edge("t" + index, "t" + ((index + 1) % length));
        }

        assertThat(builder.validate()).singleElement()
                .isInstanceOfSatisfying(GraphProblem.Cycle.class, cycle -> {
                    assertThat(cycle.members()).hasSize(length);
                    assertThat(cycle.path()).hasSize(length + 1);
                });
    }

    private static Arguments invalid(String name, UnaryOperator<GraphBuilder> graph, String... expected) {
        return Arguments.of(name, graph, expected);
    }
}
