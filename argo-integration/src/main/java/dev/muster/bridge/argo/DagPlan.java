package dev.muster.bridge.argo;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;

/**
 * The {@code dag} plugin's annotations for a Workflow's PodGroups, and why there are none.
 *
 * @param annotations per Pod node id, and per fan-out ({@link #fanOutKey}), the annotations its
 *     PodGroup carries
 * @param problems when not empty, {@code annotations} is empty: the workflow runs without DAG hints
 */
public record DagPlan(ImmutableMap<String, ImmutableMap<String, String>> annotations, ImmutableList<DagProblem> problems) {
    public static final DagPlan NONE = new DagPlan(ImmutableMap.of(), ImmutableList.of());

    public DagPlan {
        annotations = ImmutableMap.copyOf(annotations);
        problems = ImmutableList.copyOf(problems);
    }

    /** A fan-out's key in {@link #annotations}: a group node may hold fan-outs of several templates. */
    public static String fanOutKey(FanOut fanOut) {
        return fanOut.groupNodeId() + "/" + fanOut.template();
    }

    /** The annotations for a fan-out's PodGroup; empty when it has no place in the DAG. */
    public ImmutableMap<String, String> forFanOut(FanOut fanOut) {
        return forNode(fanOutKey(fanOut));
    }

    /** The annotations for the PodGroup of a pod node's pod; empty when the node has no place in the DAG. */
    public ImmutableMap<String, String> forNode(String nodeId) {
        return annotations.getOrDefault(nodeId, ImmutableMap.of());
    }
}
