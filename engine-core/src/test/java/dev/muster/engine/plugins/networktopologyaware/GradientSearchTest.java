package dev.muster.engine.plugins.networktopologyaware;

import static dev.muster.engine.testing.ClusterScenario.cpu;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.engine.framework.Session;
import dev.muster.engine.model.Resources;
import dev.muster.engine.testing.ClusterScenario;
import dev.muster.engine.testing.TestingScheduler;
import dev.muster.engine.topology.HyperNodeTree;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GradientSearchTest {
    private static final String TOP = HyperNodeTree.CLUSTER_TOP;

    /** Two switches (tier 1) of two 2-cpu nodes under one spine (tier 2); s0-n1 is half used. */
    private static GradientSearch search() {
        var scenario = ClusterScenario.builder()
                .node("s0-n1", cpu(2))
                .node("s0-n2", cpu(2))
                .node("s1-n3", cpu(2))
                .node("s1-n4", cpu(2))
                .hyperNodeOfNodes("s0", 1, "s0-n1", "s0-n2")
                .hyperNodeOfNodes("s1", 1, "s1-n3", "s1-n4")
                .hyperNodeOfHyperNodes("s2", 2, "s0", "s1")
                .job("ns/other", "default", 1, cpu(1), 0)
                .running("ns/other", "other-0", cpu(1), "s0-n1")
                .build();
        Session session = TestingScheduler.withConfig("""
                actions: "allocate"
                tiers:
                - plugins:
                  - name: gang
                """).runActions(scenario);
        return new GradientSearch(session.hyperNodes(), new HyperNodeUsage(session));
    }

    static Stream<Arguments> gradients() {
        return Stream.of(
                Arguments.of("lowest tier first, up to the cluster top", 3, Optional.empty(), Resources.EMPTY,
                        List.of(List.of("s0", "s1"), List.of("s2"), List.of(TOP))),
                Arguments.of("the tier limit cuts the higher tiers", 1, Optional.empty(), Resources.EMPTY,
                        List.of(List.of("s0", "s1"))),
                Arguments.of("a hypernode whose idle cannot hold the minimum is left out", 2, Optional.empty(), cpu(4),
                        List.of(List.of("s1"), List.of("s2"))),
                Arguments.of("a running job searches from the highest ancestor of its hypernode within the limit", 1,
                        Optional.of("s0"), cpu(4), List.of(List.of("s0"))),
                Arguments.of("a running job is not pre-filtered by resources", 2, Optional.of("s0"), cpu(8),
                        List.of(List.of("s0", "s1"), List.of("s2"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gradients")
    void gradientsGroupEligibleHypernodesByTier(String name, int highestTierAllowed, Optional<String> allocated, Resources minimum,
            List<List<String>> expected) {
        // when
        List<List<String>> gradients = search().gradients(TOP, highestTierAllowed, allocated, minimum);

        // then
        assertThat(gradients).isEqualTo(expected);
    }

    static Stream<Arguments> searchRoots() {
        return Stream.of(
                Arguments.of("a job not running yet searches where it is asked to", "s2", Optional.empty(), Optional.of("s2")),
                Arguments.of("the job's allowed subtree narrows a wider search", TOP, Optional.of("s0"), Optional.of("s0")),
                Arguments.of("a narrower search inside the allowed subtree stays", "s1", Optional.of("s1"), Optional.of("s1")),
                Arguments.of("disjoint subtrees leave nothing to search", "s1", Optional.of("s0"), Optional.empty()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("searchRoots")
    void searchRootIntersectsTheJobsAllowedSubtreeWithTheGivenOne(String name, String within, Optional<String> allocated,
            Optional<String> expected) {
        // when
        Optional<String> root = search().searchRoot(within, 1, allocated);

        // then
        assertThat(root).isEqualTo(expected);
    }
}
