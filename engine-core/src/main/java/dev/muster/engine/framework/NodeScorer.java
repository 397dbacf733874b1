package dev.muster.engine.framework;

import dev.muster.engine.model.NodeName;
import java.util.List;
import java.util.Map;

/**
 * Scores the nodes a task can go to; the scores of all enabled plugins are summed and the highest wins.
 *
 * <p>Called on the scheduling thread during actions; must be fast, do no I/O and not change the session.
 */
public interface NodeScorer {
    /** Scores each candidate node for the task; nodes missing from the result score 0. */
    Map<NodeName, Double> score(TaskState task, List<NodeState> nodes);

    /**
     * The same scores without a map, for the allocate loop: writes the score of {@code nodes.get(i)}
     * into {@code scores[i]} (0 for a node {@link #score(TaskState, List)} leaves out). Scorers called
     * for every task override it to avoid boxing, and may remember per-node scores in a
     * {@link NodeScoreCache}; the values must be exactly those of the map.
     */
    default void score(TaskState task, List<NodeState> nodes, double[] scores) {
        Map<NodeName, Double> byNode = score(task, nodes);
        for (int i = 0; i < nodes.size(); i++) {
            scores[i] = byNode.getOrDefault(nodes.get(i).name(), 0.0);
        }
    }
}
