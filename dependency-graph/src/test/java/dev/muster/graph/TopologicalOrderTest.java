package dev.muster.graph;

import static dev.muster.graph.Nodes.id;
import static dev.muster.graph.Nodes.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableSortedSet;
import org.junit.jupiter.api.Test;

class TopologicalOrderTest {
    @Test
    void aDiamondHasThreeLevels() {
        TopologicalOrder order = JobGraph.builder()
                .node("a").node("b").node("c").node("d")
                .edge("a", "b").edge("a", "c").edge("b", "d").edge("c", "d")
                .build()
                .topologicalOrder();

        assertThat(order.levels()).containsExactly(
                level("a"), level("b", "c"), level("d"));
        assertThat(order.depth()).isEqualTo(3);
    }

    @Test
    void aNodeSitsBelowItsDeepestParent() {
        TopologicalOrder order = JobGraph.builder()
                .node("a").node("b").node("c")
                .edge("a", "b").edge("b", "c").edge("a", "c")
                .build()
                .topologicalOrder();

        assertThat(order.levelOf(id("c"))).isEqualTo(2);
    }

    @Test
    void tiesAreBrokenByNodeIdNotByDeclarationOrder() {
        TopologicalOrder order = JobGraph.builder()
                .node("zeta").node("alpha").node("mid").node("beta")
                .edge("zeta", "mid").edge("alpha", "mid").edge("zeta", "beta")
                .build()
                .topologicalOrder();

        assertThat(order.order()).containsExactlyElementsOf(ids("alpha", "zeta", "beta", "mid"));
    }

    @Test
    void unconnectedNodesAreAllRoots() {
        TopologicalOrder order = JobGraph.builder().node("b").node("a").build().topologicalOrder();

        assertThat(order.levels()).containsExactly(level("a", "b"));
    }

    @Test
    void aLongChainHasOneLevelPerNode() {
        GraphBuilder builder = JobGraph.builder();
        for (int index = 0; index < 10_000; index++) {
            builder.node(name(index));
            if (index > 0) {
                builder.edge(name(index - 1), name(index));
            }
        }

        TopologicalOrder order = builder.build().topologicalOrder();

        assertThat(order.depth()).isEqualTo(10_000);
        assertThat(order.levelOf(id(name(9_999)))).isEqualTo(9_999);
    }

    @Test
    void anUnknownNodeHasNoLevel() {
        TopologicalOrder order = JobGraph.builder().node("a").build().topologicalOrder();

        assertThatThrownBy(() -> order.levelOf(id("b"))).hasMessage("unknown node 'b'");
    }

    private static String name(int index) {
        return String.format("t%05d", index);
    }

    private static ImmutableSortedSet<NodeId> level(String... values) {
        return ImmutableSortedSet.copyOf(ids(values));
    }
}
