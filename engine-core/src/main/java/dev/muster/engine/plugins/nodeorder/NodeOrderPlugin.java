package dev.muster.engine.plugins.nodeorder;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.NodeScorer;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.NodeName;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Volcano's nodeorder: kube-scheduler's score plugins, each 0..100 times its weight, summed.
 * Implemented: LeastAllocated, MostAllocated, BalancedAllocation ({@link ResourceAllocationScores}),
 * NodeAffinity over preferred terms and TaintToleration over PreferNoSchedule taints
 * ({@link NodePreferenceScores}).
 *
 * <p>Not implemented, their weights accepted: InterPodAffinity (the model has no pod affinity
 * terms), ImageLocality (no image sizes) and PodTopologySpread (no spread constraints). For a pod
 * without such terms Kubernetes skips or zeroes these scores, so batch pods score as in Volcano; with
 * them, Muster ignores the preference.
 */
public final class NodeOrderPlugin implements Plugin, NodeScorer {
    public static final String NAME = "nodeorder";

    private final NodeOrderArgs args;

    NodeOrderPlugin(NodeOrderArgs args) {
        this.args = requireNonNull(args, "args is null");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<NodeName, Double> score(TaskState task, List<NodeState> nodes) {
        Map<NodeName, Double> scores = new LinkedHashMap<>();
        for (NodeState node : nodes) {
            long score = 0;
            if (args.leastRequested() != 0) {
                score += ResourceAllocationScores.leastAllocated(task, node) * args.leastRequested();
            }
            if (args.mostRequested() != 0) {
                score += ResourceAllocationScores.mostAllocated(task, node) * args.mostRequested();
            }
            if (args.balancedResource() != 0) {
                OptionalLong balanced = ResourceAllocationScores.balancedAllocation(task, node);
                if (balanced.isPresent()) {
                    score += balanced.getAsLong() * args.balancedResource();
                }
            }
            scores.put(node.name(), (double) score);
        }
        if (args.nodeAffinity() != 0) {
            addWeighted(scores, NodePreferenceScores.nodeAffinity(task, nodes), args.nodeAffinity());
        }
        if (args.taintToleration() != 0) {
            addWeighted(scores, NodePreferenceScores.taintToleration(task, nodes), args.taintToleration());
        }
        return scores;
    }

    private static void addWeighted(Map<NodeName, Double> scores, Map<NodeName, Long> plugin, int weight) {
        plugin.forEach((node, score) -> scores.merge(node, (double) (score * weight), Double::sum));
    }

    /** Builds the plugin from its weights. */
    public static final class Factory implements PluginFactory<NodeOrderArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<NodeOrderArgs> argsType() {
            return NodeOrderArgs.class;
        }

        @Override
        public NodeOrderArgs defaultArgs() {
            return NodeOrderArgs.DEFAULTS;
        }

        @Override
        public Plugin create(NodeOrderArgs args, Session session) {
            return new NodeOrderPlugin(args);
        }
    }
}
