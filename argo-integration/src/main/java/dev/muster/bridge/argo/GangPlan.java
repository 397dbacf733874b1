package dev.muster.bridge.argo;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.muster.runtime.controller.ObjectKey;
import java.util.Optional;

/**
 * What one Workflow's pods need: a PodGroup per gang fan-out, the group of each pod node in one, and
 * the problems to report.
 *
 * @param listedNodes every node id the Workflow's status lists: a gated pod of a listed node is let go,
 *     with its group annotation if it has a group and without one if it has none
 */
public record GangPlan(
        ObjectKey workflow,
        ImmutableList<PodGroupSpec> podGroups,
        ImmutableMap<String, String> groupByPodNode,
        ImmutableSet<String> listedNodes,
        ImmutableList<GangProblem> problems) {
    public GangPlan {
        requireNonNull(workflow, "workflow is null");
        podGroups = ImmutableList.copyOf(podGroups);
        groupByPodNode = ImmutableMap.copyOf(groupByPodNode);
        listedNodes = ImmutableSet.copyOf(listedNodes);
        problems = ImmutableList.copyOf(problems);
    }

    /** The PodGroup a pod of this node belongs to, if its node is a member of a gang fan-out. */
    public Optional<String> group(String podNodeId) {
        return Optional.ofNullable(groupByPodNode.get(podNodeId));
    }
}
