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
}
