package dev.muster.engine.plugins.binpack;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.framework.NodeScoreCache;
import dev.muster.engine.framework.NodeScorer;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's binpack: prefers the nodes a task fills most. For each resource the task requests that
 * has a weight, the term is {@code weight × (request + used) / allocatable}; the score is the sum of
 * terms over the sum of their weights, times 100 and {@code binpack.weight}. A resource the node
 * does not have (or with weight 0) adds nothing but keeps its weight in the sum; a resource that
 * would overflow the node zeroes the whole score.
 */
public final class BinpackPlugin implements Plugin, NodeScorer {
    public static final String NAME = "binpack";

    private static final double MAX_NODE_SCORE = 100;

    private final int weight;
    private final ImmutableMap<String, Integer> resourceWeights;
    // a node's score reads only the task's request and the node's used and allocatable
    private final NodeScoreCache cache;

    BinpackPlugin(BinpackArgs args, int nodeCount) {
        requireNonNull(args, "args is null");
        this.weight = args.weight();
        this.resourceWeights = args.weights();
        this.cache = new NodeScoreCache(nodeCount);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<NodeName, Double> score(TaskState task, List<NodeState> nodes) {
        if (weight == 0) {
            return Map.of();
        }
        Map<NodeName, Double> scores = new LinkedHashMap<>();
        for (NodeState node : nodes) {
            scores.put(node.name(), score(task.request(), node.allocatable(), node.used()));
        }
        return scores;
    }

    @Override
    public void score(TaskState task, List<NodeState> nodes, double[] scores) {
        if (weight == 0) {
            Arrays.fill(scores, 0, nodes.size(), 0.0);
            return;
        }
        Resources request = task.request();
        NodeScoreCache.Scores cached = cache.forKey(request);
        for (int i = 0; i < nodes.size(); i++) {
            NodeState node = nodes.get(i);
            scores[i] = cached.isCurrent(node) ? cached.get(node) : cached.put(node, score(request, node.allocatable(), node.used()));
        }
    }

    double score(Resources request, Resources allocatable, Resources used) {
        double score = 0;
        int weightSum = 0;
        for (String resource : request.requestedNames()) {
            Integer resourceWeight = resourceWeights.get(resource);
            if (resourceWeight == null) {
                continue;
            }
            double capacity = allocatable.get(resource);
            if (capacity != 0 && resourceWeight != 0) {
                double usedFinally = request.get(resource) + used.get(resource);
                if (usedFinally > capacity) {
                    return 0;
                }
                score += usedFinally * resourceWeight / capacity;
            }
            weightSum += resourceWeight;
        }
        if (weightSum > 0) {
            score /= weightSum;
        }
        return score * MAX_NODE_SCORE * weight;
    }

    /** Builds the plugin from its weights. */
    public static final class Factory implements PluginFactory<BinpackArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<BinpackArgs> argsType() {
            return BinpackArgs.class;
        }

        @Override
        public BinpackArgs defaultArgs() {
            return BinpackArgs.DEFAULTS;
        }

        @Override
        public Plugin create(BinpackArgs args, Session session) {
            return new BinpackPlugin(args, session.nodes().size());
        }
    }
}
