package dev.muster.engine.plugins.networktopologyaware;

import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.topology.HyperNodeTree;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Node scores for tasks without a topology ("normal pods"): for each tier from the lowest to the
 * highest, the binpack score of the node's hypernode of that tier (1 when it has none, so nodes outside
 * every hypernode are preferred), weighted by {@code fading^(tier - 1)} and averaged.
 */
final class NormalPodScores {
    private NormalPodScores() {}

    static Map<NodeName, Double> score(TaskState task, List<NodeState> nodes, HyperNodeTree tree, HyperNodeUsage usage,
            Map<String, Integer> weights, NetworkTopologyAwareArgs args) {
        Map<NodeName, Double> scores = new HashMap<>();
        if (!args.normalPodEnable()) {
            return scores;
        }
        List<Integer> tiers = tree.tiers();
        int minTier = tiers.get(0);
        int maxTier = tiers.get(tiers.size() - 1);
        Map<Integer, Double> tierWeights = new HashMap<>();
        double totalWeight = 0;
        for (int tier = minTier; tier <= maxTier; tier++) {
            double weight = Math.pow(args.normalPodFading(), tier - 1);
            tierWeights.put(tier, weight);
            totalWeight += weight;
        }
        if (totalWeight <= 0) {
            return scores;
        }
        for (NodeState node : nodes) {
            double total = 0;
            for (int tier = minTier; tier <= maxTier; tier++) {
                Optional<String> hyperNode = hyperNodeOfTier(tree, tier, node.name());
                double tierScore = hyperNode.map(name -> binpack(task, name, usage, weights)).orElse(1.0);
                total += tierWeights.get(tier) * tierScore;
            }
            scores.put(node.name(), total / totalWeight);
        }
        return scores;
    }

    private static Optional<String> hyperNodeOfTier(HyperNodeTree tree, int tier, NodeName node) {
        for (String hyperNode : tree.hyperNodesOfTier(tier)) {
            if (tree.leafNodes(hyperNode).contains(node)) {
                return Optional.of(hyperNode);
            }
        }
        return Optional.empty();
    }

    private static double binpack(TaskState task, String hyperNode, HyperNodeUsage usage, Map<String, Integer> weights) {
        Optional<HyperNodeUsage.Status> status = usage.status(hyperNode);
        double total = 0;
        int totalWeight = 0;
        for (String resource : task.request().requestedNames()) {
            Integer weight = weights.get(resource);
            if (weight == null || status.isEmpty()) {
                continue;
            }
            double allocatable = status.get().allocatable().get(resource);
            double used = status.get().used().get(resource) + task.request().get(resource);
            if (used > allocatable) {
                return 0;
            }
            total += weight * used / allocatable;
            totalWeight += weight;
        }
        return totalWeight > 0 ? total / totalWeight : 0;
    }
}
