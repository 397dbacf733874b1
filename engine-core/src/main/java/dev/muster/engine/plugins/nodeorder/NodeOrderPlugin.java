package dev.muster.engine.plugins.nodeorder;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.NodeScoreCache;
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
    // the resource scores read only the task's init request and the node's own accounting
    private final NodeScoreCache resourceScores;
    // without such taints every node scores the maximum for taint toleration, whatever the candidates
    private final boolean preferNoScheduleTaints;

    NodeOrderPlugin(NodeOrderArgs args, List<NodeState> nodes) {
        this.args = requireNonNull(args, "args is null");
        this.resourceScores = new NodeScoreCache(nodes.size());
        this.preferNoScheduleTaints = NodePreferenceScores.anyPreferNoScheduleTaint(nodes);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<NodeName, Double> score(TaskState task, List<NodeState> nodes) {
        Map<NodeName, Double> scores = new LinkedHashMap<>();
        for (NodeState node : nodes) {
            scores.put(node.name(), (double) resourceScore(task, node));
        }
        if (args.nodeAffinity() != 0) {
            addWeighted(scores, NodePreferenceScores.nodeAffinity(task, nodes), args.nodeAffinity());
        }
        if (args.taintToleration() != 0) {
            addWeighted(scores, NodePreferenceScores.taintToleration(task, nodes), args.taintToleration());
        }
        return scores;
    }

    /**
     * The map-free path: resource scores come from the cache; the node affinity and taint scores are
     * normalized over the candidates, so they are worked out for every call. The parts are whole
     * numbers, so their sums are exact and equal those of {@link #score(TaskState, List)}.
     */
    @Override
    public void score(TaskState task, List<NodeState> nodes, double[] scores) {
        NodeScoreCache.Scores cached = resourceScores.forKey(task.initRequest());
        // without PreferNoSchedule taints anywhere, every node gets the maximum taint toleration score
        double untainted = args.taintToleration() != 0 && !preferNoScheduleTaints
                ? (double) (ResourceAllocationScores.MAX_NODE_SCORE * args.taintToleration())
                : 0;
        for (int i = 0; i < nodes.size(); i++) {
            NodeState node = nodes.get(i);
            scores[i] = (cached.isCurrent(node) ? cached.get(node) : cached.put(node, resourceScore(task, node))) + untainted;
        }
        if (args.nodeAffinity() != 0 && !task.task().placement().preferredNodeAffinity().isEmpty()) {
            Map<NodeName, Long> affinity = NodePreferenceScores.nodeAffinity(task, nodes);
            for (int i = 0; i < nodes.size(); i++) {
                scores[i] += (double) (affinity.get(nodes.get(i).name()) * args.nodeAffinity());
            }
        }
        if (args.taintToleration() != 0 && preferNoScheduleTaints) {
            NodePreferenceScores.addTaintToleration(task, nodes, args.taintToleration(), scores);
        }
    }

    private long resourceScore(TaskState task, NodeState node) {
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
        return score;
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
            return new NodeOrderPlugin(args, session.nodes());
        }
    }
}
