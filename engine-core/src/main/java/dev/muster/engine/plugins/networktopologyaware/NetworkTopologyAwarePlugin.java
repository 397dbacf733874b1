package dev.muster.engine.plugins.networktopologyaware;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedSet;
import dev.muster.engine.framework.AllocationListener;
import dev.muster.engine.framework.HyperNodeGradients;
import dev.muster.engine.framework.HyperNodeScorer;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NodeScorer;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SubJobState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.topology.HyperNodeTree;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Volcano's network-topology-aware plugin. It gives the hypernode gradients a job or subgroup with a
 * hard topology is tried in ({@link GradientSearch}); scores candidate hypernodes by how full the
 * subgroup would leave them (binpack), ties going to the hypernode already holding more of its tasks;
 * and scores nodes: for a task with a topology, by how low the common ancestor of the node's hypernode
 * and the subgroup's hypernode so far is; for other tasks, by a tier-faded binpack over the hypernodes
 * holding the node. Scores are scaled to 0..100 times {@code weight}. Not thread-safe: one per session.
 */
public final class NetworkTopologyAwarePlugin implements Plugin, HyperNodeScorer, HyperNodeGradients, NodeScorer, AllocationListener {
    public static final String NAME = "network-topology-aware";

    private static final double MAX_SCORE = 100;

    private final NetworkTopologyAwareArgs args;
    private final ImmutableMap<String, Integer> weights;
    private final HyperNodeTree tree;
    private final HyperNodeUsage usage;
    private final GradientSearch search;
    private final ImmutableList<Integer> tiers;

    NetworkTopologyAwarePlugin(NetworkTopologyAwareArgs args, Session session) {
        this.args = requireNonNull(args, "args is null");
        this.weights = args.weights();
        this.tree = session.hyperNodes();
        this.usage = new HyperNodeUsage(session);
        this.search = new GradientSearch(tree, usage);
        this.tiers = tree.tiers();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<List<String>> gradientsForJob(JobState job, String within) {
        Optional<Integer> limit = job.hardTierLimit();
        if (limit.isEmpty()) {
            return List.of(List.of(within));
        }
        Resources minimum = job.job().minResources().orElse(Resources.EMPTY);
        return search.gradients(within, limit.get(), job.allocatedHyperNode(), minimum);
    }

    @Override
    public List<List<String>> gradientsForSubJob(SubJobState subJob, String within) {
        Optional<Integer> limit = subJob.hardTierLimit();
        if (limit.isEmpty()) {
            return List.of(List.of(within));
        }
        return search.gradients(within, limit.get(), subJob.allocatedHyperNode(), subJob.pendingRequest());
    }

    @Override
    public Map<String, Double> scoreHyperNodes(SubJobState subJob, List<String> hyperNodes) {
        Map<String, Double> request = new HashMap<>();
        // all the subgroup's tasks, placed ones included, as Volcano sums them
        for (TaskState task : subJob.tasks()) {
            for (String resource : task.request().requestedNames()) {
                if (weights.containsKey(resource)) {
                    request.merge(resource, task.request().get(resource), Double::sum);
                }
            }
        }
        Map<String, Double> scores = new HashMap<>();
        for (String hyperNode : hyperNodes) {
            scores.put(hyperNode, binpack(hyperNode, request));
        }
        breakTiesByTasksHeld(scores, subJob);
        return scaled(scores);
    }

    private double binpack(String hyperNode, Map<String, Double> request) {
        Optional<HyperNodeUsage.Status> status = usage.status(hyperNode);
        double total = 0;
        int totalWeight = 0;
        for (Map.Entry<String, Double> entry : request.entrySet()) {
            if (status.isEmpty()) {
                continue;
            }
            double allocatable = status.get().allocatable().get(entry.getKey());
            double used = status.get().used().get(entry.getKey()) + entry.getValue();
            if (used > allocatable) {
                return 0;
            }
            int weight = weights.get(entry.getKey());
            total += weight * used / allocatable;
            totalWeight += weight;
        }
        return totalWeight > 0 ? total / totalWeight : 0;
    }

    /** Among the keys with the highest score, each gains the share of the subgroup's tasks its hypernode holds. */
    private <K> void breakTiesByTasksHeld(Map<K, Double> scores, SubJobState subJob, Function<K, Optional<String>> hyperNodeOf) {
        double max = scores.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        List<K> best = scores.entrySet().stream().filter(entry -> entry.getValue() == max).map(Map.Entry::getKey).toList();
        if (best.size() <= 1 || subJob.tasks().isEmpty()) {
            return;
        }
        for (K key : best) {
            scores.merge(key, tasksHeldShare(hyperNodeOf.apply(key), subJob), Double::sum);
        }
    }

    private void breakTiesByTasksHeld(Map<String, Double> scores, SubJobState subJob) {
        breakTiesByTasksHeld(scores, subJob, Optional::of);
    }

    private double tasksHeldShare(Optional<String> hyperNode, SubJobState subJob) {
        if (hyperNode.isEmpty()) {
            return 0;
        }
        ImmutableSortedSet<NodeName> nodes = tree.leafNodes(hyperNode.get());
        long held = subJob.tasks().stream().filter(task -> task.node().filter(nodes::contains).isPresent()).count();
        return (double) held / subJob.tasks().size();
    }

    @Override
    public Map<NodeName, Double> score(TaskState task, List<NodeState> nodes) {
        SubJobState subJob = task.job().subJobOf(task);
        if (subJob.withNetworkTopology()) {
            return scaled(closeness(task, subJob, nodes));
        }
        return scaled(NormalPodScores.score(task, nodes, tree, usage, weights, args));
    }

    private Map<NodeName, Double> closeness(TaskState task, SubJobState subJob, List<NodeState> nodes) {
        Map<NodeName, Double> scores = new HashMap<>();
        Optional<String> allocated = task.jobAllocatedHyperNode();
        if (allocated.isEmpty()) {
            return scores;
        }
        for (NodeState node : nodes) {
            scores.put(node.name(), closeness(tree.lowestTierHyperNodeOf(node.name()), allocated.get()));
        }
        breakTiesByTasksHeld(scores, subJob, tree::lowestTierHyperNodeOf);
        return scores;
    }

    /** 1 in the job's own hypernode, else by the tier of the common ancestor: the lower, the closer to 1. */
    private double closeness(Optional<String> hyperNode, String allocated) {
        if (hyperNode.isEmpty()) {
            return 0;
        }
        if (hyperNode.get().equals(allocated)) {
            return 1;
        }
        int tier = tree.tier(tree.lowestCommonAncestor(hyperNode.get(), allocated));
        int minTier = tiers.get(0);
        int maxTier = tiers.get(tiers.size() - 1);
        if (minTier == maxTier) {
            return 1;
        }
        if (tier < minTier || tier > maxTier) {
            return 0;
        }
        return (double) (maxTier - tier) / (maxTier - minTier);
    }

    private <K> Map<K, Double> scaled(Map<K, Double> scores) {
        Map<K, Double> result = new HashMap<>();
        scores.forEach((key, score) -> result.put(key, MAX_SCORE * args.weight() * score));
        return result;
    }

    @Override
    public void allocated(TaskState task) {
        usage.allocated(task);
    }

    @Override
    public void deallocated(TaskState task) {
        usage.deallocated(task);
    }

    /** Builds the plugin for a session from its arguments. */
    public static final class Factory implements PluginFactory<NetworkTopologyAwareArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<NetworkTopologyAwareArgs> argsType() {
            return NetworkTopologyAwareArgs.class;
        }

        @Override
        public NetworkTopologyAwareArgs defaultArgs() {
            return NetworkTopologyAwareArgs.DEFAULTS;
        }

        @Override
        public Plugin create(NetworkTopologyAwareArgs args, Session session) {
            return new NetworkTopologyAwarePlugin(args, session);
        }
    }
}
