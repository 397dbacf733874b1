package dev.muster.bridge.argo;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;

/**
 * The {@code dag} plugin's annotations for a Workflow's PodGroups, and why there are none.
 *
 * @param annotations per node id (a fan-out's StepGroup or TaskGroup node, or a Pod node), the
 *     annotations its PodGroup carries
 * @param problems when not empty, {@code annotations} is empty: the workflow runs without DAG hints
 */
public record DagPlan(ImmutableMap<String, ImmutableMap<String, String>> annotations, ImmutableList<DagProblem> problems) {
    public static final DagPlan NONE = new DagPlan(ImmutableMap.of(), ImmutableList.of());

    public DagPlan {
        annotations = ImmutableMap.copyOf(annotations);
        problems = ImmutableList.copyOf(problems);
    }

    /** The annotations for a node's PodGroup; empty when the node has no place in the DAG. */
    public ImmutableMap<String, String> forNode(String nodeId) {
        return annotations.getOrDefault(nodeId, ImmutableMap.of());
    }
}
