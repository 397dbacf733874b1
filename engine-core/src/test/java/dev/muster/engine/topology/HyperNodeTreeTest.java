package dev.muster.engine.topology;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.HyperNode;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.testing.TestingScoring;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HyperNodeTreeTest {
    private static final List<ClusterNode> NODES = List.of(
            TestingScoring.node("n1", cpu(1), Map.of(), List.of()),
            TestingScoring.node("n2", cpu(1), Map.of(), List.of()),
            TestingScoring.node("n3", cpu(1), Map.of(), List.of()),
            TestingScoring.node("n4", cpu(1), Map.of(), List.of()),
            TestingScoring.node("n5", cpu(1), Map.of("rack", "c"), List.of()));

    private static final List<HyperNode> TREE = List.of(
            hyperNode("s0", 1, node("n1"), node("n2")),
            hyperNode("s1", 1, new HyperNode.Member(false, "", "n[34]", ImmutableMap.of())),
            hyperNode("s2", 1, new HyperNode.Member(false, "", "", ImmutableMap.of("rack", "c"))),
            hyperNode("s3", 2, child("s0"), child("s1")),
            hyperNode("s4", 2, child("s2")));

    @Test
    void leafNodesAreCollectedThroughEveryMemberKind() {
        HyperNodeTree tree = HyperNodeTree.build(NODES, TREE);

        assertThat(tree.problems()).isEmpty();
        assertThat(tree.leafNodes("s1")).containsExactly(new NodeName("n3"), new NodeName("n4"));
        assertThat(tree.leafNodes("s2")).containsExactly(new NodeName("n5"));
        assertThat(tree.leafNodes("s3")).hasSize(4);
        assertThat(tree.leafNodes(HyperNodeTree.CLUSTER_TOP)).hasSize(5);
    }

    @Test
    void tiersAndTheClusterTop() {
        HyperNodeTree tree = HyperNodeTree.build(NODES, TREE);

        assertThat(tree.hyperNodesOfTier(1)).containsExactly("s0", "s1", "s2");
        assertThat(tree.tier(HyperNodeTree.CLUSTER_TOP)).isEqualTo(3);
        assertThat(tree.parent("s3")).contains(HyperNodeTree.CLUSTER_TOP);
        assertThat(tree.parent(HyperNodeTree.CLUSTER_TOP)).isEmpty();
    }

    @Test
    void lowestCommonAncestor() {
        HyperNodeTree tree = HyperNodeTree.build(NODES, TREE);

        assertThat(tree.lowestCommonAncestor("s0", "s1")).isEqualTo("s3");
        assertThat(tree.lowestCommonAncestor("s0", "s3")).isEqualTo("s3");
        assertThat(tree.lowestCommonAncestor("s0", "s2")).isEqualTo(HyperNodeTree.CLUSTER_TOP);
    }

    @Test
    void problemsAreReported() {
        HyperNodeTree tree = HyperNodeTree.build(NODES, List.of(
                hyperNode("a", 2, child("leaf")),
                hyperNode("b", 2, child("leaf")),
                hyperNode("leaf", 1, new HyperNode.Member(false, "", "n[", ImmutableMap.of())),
                hyperNode("x", 3, child("y")),
                hyperNode("y", 3, child("x"))));

        assertThat(tree.problems()).anyMatch(problem -> problem.equals("hypernode leaf has two parents: a and b"));
        assertThat(tree.problems()).anyMatch(problem -> problem.startsWith("hypernode leaf: member regex 'n[' is invalid"));
        assertThat(tree.problems()).anyMatch(problem -> problem.endsWith("is its own ancestor"));
        assertThat(tree.lowestCommonAncestor("x", "a")).isEqualTo(HyperNodeTree.CLUSTER_TOP);
    }

    private static HyperNode hyperNode(String name, int tier, HyperNode.Member... members) {
        return new HyperNode(name, tier, "", ImmutableList.copyOf(members));
    }

    private static HyperNode.Member node(String name) {
        return new HyperNode.Member(false, name, "", ImmutableMap.of());
    }

    private static HyperNode.Member child(String name) {
        return new HyperNode.Member(true, name, "", ImmutableMap.of());
    }
}
