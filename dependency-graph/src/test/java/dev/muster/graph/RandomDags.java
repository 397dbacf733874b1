package dev.muster.graph;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Random acyclic graphs for the property tests. Node names are shuffled, so that id order and
 * dependency order disagree; edges only go forward in a hidden order, so the graph has no cycle.
 */
final class RandomDags {
    private static final ImmutableList<Condition> CONDITIONS = ImmutableList.of(
            Condition.RUNNING, Condition.SUCCEEDED, Condition.FAILED, Condition.COMPLETED,
            Condition.SUCCEEDED_OR_SKIPPED, Condition.DONE);

    private RandomDags() {}

    /** A graph of {@code size} nodes in which each forward pair is an edge with probability {@code density}. */
    static JobGraph dag(Random random, int size, double density) {
        List<String> names = new ArrayList<>();
        for (int index = 0; index < size; index++) {
            names.add(String.format("n%03d", index));
        }
        Collections.shuffle(names, random);
        GraphBuilder builder = JobGraph.builder();
        for (String name : names) {
            builder.node(name, random.nextBoolean() ? Join.ALL : Join.ANY);
        }
        for (int parent = 0; parent < size; parent++) {
            for (int child = parent + 1; child < size; child++) {
                if (random.nextDouble() < density) {
                    builder.edge(names.get(parent), names.get(child), CONDITIONS.get(random.nextInt(CONDITIONS.size())));
                }
            }
        }
        return builder.build();
    }

    /** A builder holding the same nodes and edges as {@code graph}, to add more. */
    static GraphBuilder toBuilder(JobGraph graph) {
        GraphBuilder builder = JobGraph.builder();
        graph.nodes().forEach(node -> builder.node(node, graph.join(node)));
        graph.dependencies().forEach(builder::dependency);
        return builder;
    }
}
