package dev.muster.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Properties checked on random graphs; every seed is fixed, so a failure replays exactly. */
class GraphPropertiesTest {
    static LongStream seeds() {
        return LongStream.rangeClosed(1, 40);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void readinessNeverReleasesANodeBeforeItsParentsMeetTheCondition(long seed) {
        Random random = new Random(seed);
        JobGraph graph = RandomDags.dag(random, 5 + random.nextInt(30), random.nextDouble() * 0.4);
        GraphRun run = new GraphRun(graph);
        List<NodeId> running = new ArrayList<>();

        while (!run.isFinished()) {
            for (NodeId node : graph.nodes()) {
                assertThat(run.isReady(node)).as("%s ready", node).isEqualTo(expectedReady(run, node));
                if (run.state(node) == NodeState.SKIPPED && !run.skipReason(node).orElseThrow().equals("owner")) {
                    assertThat(canStillStart(run, node)).as("%s skipped: %s", node, run.skipReason(node)).isFalse();
                }
            }
            ImmutableList<NodeId> ready = run.ready().asList();
            assertThat(ready.isEmpty() && running.isEmpty()).as("stuck with pending nodes: %s", run.states()).isFalse();
            int choice = random.nextInt(10);
            if (choice == 0 && !ready.isEmpty()) {
                run.markSkipped(ready.get(random.nextInt(ready.size())), "owner");
            } else if ((choice < 5 && !ready.isEmpty()) || running.isEmpty()) {
                NodeId node = ready.get(random.nextInt(ready.size()));
                run.markRunning(node);
                running.add(node);
            } else {
                NodeId node = running.remove(random.nextInt(running.size()));
                run.update(node, random.nextInt(4) == 0 ? NodeState.FAILED : NodeState.SUCCEEDED);
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void anInjectedBackEdgeIsReportedAsACycleNamingEveryNodeOnIt(long seed) {
        // given a random walk along edges, closed by an edge back to its start
        Random random = new Random(seed);
        JobGraph graph = RandomDags.dag(random, 5 + random.nextInt(30), 0.05 + random.nextDouble() * 0.3);
        List<NodeId> starts = graph.nodes().stream().filter(node -> !graph.children(node).isEmpty()).toList();
        NodeId start = starts.get(random.nextInt(starts.size()));
        List<NodeId> walk = new ArrayList<>(List.of(start));
        for (NodeId node = start; !graph.children(node).isEmpty() && (walk.size() < 2 || random.nextBoolean()); ) {
            ImmutableList<Dependency> children = graph.children(node);
            node = children.get(random.nextInt(children.size())).child();
            walk.add(node);
        }
        NodeId last = walk.get(walk.size() - 1);
        GraphBuilder builder = RandomDags.toBuilder(graph).edge(last.value(), start.value(), Condition.SUCCEEDED);

        // when
        ImmutableList<GraphProblem> problems = builder.validate();

        // then
        assertThat(problems).singleElement().isInstanceOfSatisfying(GraphProblem.Cycle.class, cycle -> {
            assertThat(cycle.members()).containsAll(walk);
            assertThat(cycle.path().get(0)).isEqualTo(cycle.members().first());
            for (int index = 0; index + 1 < cycle.path().size(); index++) {
                NodeId from = cycle.path().get(index);
                NodeId to = cycle.path().get(index + 1);
                boolean edge = (from.equals(last) && to.equals(start))
                        || graph.children(from).stream().anyMatch(dependency -> dependency.child().equals(to));
                assertThat(edge).as("%s -> %s is an edge", from, to).isTrue();
            }
            assertThat(cycle.message()).startsWith("cycle: " + cycle.members().first() + " -> ");
        });
        assertThatThrownBy(builder::build).isInstanceOf(GraphException.class);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void topologicalOrderRespectsEveryEdge(long seed) {
        Random random = new Random(seed);
        JobGraph graph = RandomDags.dag(random, 1 + random.nextInt(40), random.nextDouble() * 0.5);
        TopologicalOrder order = graph.topologicalOrder();

        assertThat(order.order()).containsExactlyInAnyOrderElementsOf(graph.nodes());
        for (Dependency edge : graph.dependencies()) {
            assertThat(order.levelOf(edge.parent())).as("%s", edge).isLessThan(order.levelOf(edge.child()));
            assertThat(order.order().indexOf(edge.parent())).isLessThan(order.order().indexOf(edge.child()));
        }
        for (NodeId node : graph.nodes()) {
            int expected = graph.parents(node).stream().mapToInt(edge -> order.levelOf(edge.parent()) + 1).max().orElse(0);
            assertThat(order.levelOf(node)).as("level of %s", node).isEqualTo(expected);
        }
        for (ImmutableList<NodeId> level : order.levels().stream().map(ImmutableList::copyOf).toList()) {
            assertThat(level).isSorted();
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void criticalPathIsAChainAsLongAsAnyOther(long seed) {
        Random random = new Random(seed);
        JobGraph graph = RandomDags.dag(random, 1 + random.nextInt(40), random.nextDouble() * 0.4);
        Map<NodeId, Duration> durations = new HashMap<>();
        graph.nodes().forEach(node -> durations.put(node, Duration.ofSeconds(random.nextInt(100))));

        CriticalPath path = CriticalPath.of(graph, durations);

        Duration length = Duration.ZERO;
        for (int index = 0; index < path.path().size(); index++) {
            NodeId node = path.path().get(index);
            length = length.plus(durations.get(node));
            if (index + 1 < path.path().size()) {
                NodeId next = path.path().get(index + 1);
                assertThat(graph.children(node)).extracting(Dependency::child).contains(next);
            } else {
                assertThat(graph.children(node)).isEmpty();
            }
        }
        assertThat(path.length()).isEqualTo(length);
        for (Dependency edge : graph.dependencies()) {
            assertThat(path.remaining(edge.parent()))
                    .isGreaterThanOrEqualTo(durations.get(edge.parent()).plus(path.remaining(edge.child())));
        }
        graph.nodes().forEach(node -> assertThat(path.remaining(node)).isLessThanOrEqualTo(path.length()));
    }

    /** The readiness rule restated independently of {@link GraphRun}. */
    private static boolean expectedReady(GraphRun run, NodeId node) {
        if (run.state(node) != NodeState.PENDING) {
            return false;
        }
        ImmutableList<Dependency> parents = run.graph().parents(node);
        return switch (run.graph().join(node)) {
            case ALL -> parents.stream().allMatch(edge -> edge.condition().states().contains(run.state(edge.parent())));
            case ANY -> parents.isEmpty() || parents.stream().anyMatch(edge -> edge.condition().states().contains(run.state(edge.parent())));
        };
    }

    /** Whether some future of the parents' states could still satisfy the node's join. */
    private static boolean canStillStart(GraphRun run, NodeId node) {
        ImmutableList<Dependency> parents = run.graph().parents(node);
        return switch (run.graph().join(node)) {
            case ALL -> parents.stream().allMatch(edge -> reachable(run.state(edge.parent()), edge.condition()));
            case ANY -> parents.isEmpty() || parents.stream().anyMatch(edge -> reachable(run.state(edge.parent()), edge.condition()));
        };
    }

    private static boolean reachable(NodeState parent, Condition condition) {
        if (condition.states().contains(parent)) {
            return true;
        }
        return switch (parent) {
            case PENDING, RUNNING -> true;
            case SUCCEEDED, FAILED, SKIPPED -> false;
        };
    }
}
