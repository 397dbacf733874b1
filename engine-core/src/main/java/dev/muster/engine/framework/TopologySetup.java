package dev.muster.engine.framework;

import dev.muster.engine.model.NetworkTopology;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.topology.HyperNodeTree;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares jobs with a network topology when a session opens, as Volcano's session does: a
 * {@code highestTierName} becomes its tier, a soft topology becomes a hard one up to the cluster top
 * (so soft jobs take the same hypernode-by-hypernode path, just unbounded; a soft subgroup is bounded
 * by its job's limit), and the hypernode a job already runs in is worked out from its placed tasks.
 */
final class TopologySetup {
    private static final Logger log = LoggerFactory.getLogger(TopologySetup.class);

    private TopologySetup() {}

    static void prepare(JobState job, HyperNodeTree tree, boolean treeReady) {
        if (!job.containsNetworkTopology()) {
            return;
        }
        int clusterTopTier = tree.tier(HyperNodeTree.CLUSTER_TOP);
        Optional<NetworkTopology> jobTopology = hardened(resolveTierName(job, job.networkTopology(), tree), clusterTopTier);
        job.setNetworkTopology(jobTopology);
        int subJobLimit = jobTopology.flatMap(NetworkTopology::highestTierAllowed).orElse(clusterTopTier);
        for (SubJobState subJob : job.subJobs()) {
            subJob.setNetworkTopology(hardened(resolveTierName(job, subJob.networkTopology(), tree), subJobLimit));
        }
        if (treeReady) {
            recoverAllocatedHyperNodes(job, tree);
        }
    }

    private static Optional<NetworkTopology> resolveTierName(JobState job, Optional<NetworkTopology> topology, HyperNodeTree tree) {
        if (topology.isEmpty() || topology.get().highestTierAllowed().isPresent() || topology.get().highestTierName().isEmpty()) {
            return topology;
        }
        String name = topology.get().highestTierName().get();
        Optional<Integer> tier = tree.tierNamed(name);
        if (tier.isEmpty()) {
            log.debug("job={}: no hypernode has tier name {}; its topology names no tier", job.id(), name);
            return topology;
        }
        return Optional.of(new NetworkTopology(topology.get().hard(), tier, Optional.empty()));
    }

    private static Optional<NetworkTopology> hardened(Optional<NetworkTopology> topology, int tier) {
        if (topology.isEmpty() || topology.get().hard()) {
            return topology;
        }
        return Optional.of(new NetworkTopology(true, Optional.of(tier), Optional.empty()));
    }

    /**
     * Volcano's {@code recoverAllocatedHyperNode}: a subgroup with a topology and placed tasks runs in
     * the lowest-tier hypernode holding all their nodes (none when some node is in no hypernode); the
     * job runs in the lowest common ancestor of its subgroups' hypernodes.
     */
    private static void recoverAllocatedHyperNodes(JobState job, HyperNodeTree tree) {
        for (SubJobState subJob : job.subJobs()) {
            if (!subJob.withNetworkTopology() || subJob.allocatedHyperNode().isPresent()) {
                continue;
            }
            Set<String> holding = null;
            for (TaskState task : subJob.tasks()) {
                if (!task.status().isAllocated() || task.node().isEmpty()) {
                    continue;
                }
                NodeName node = task.node().get();
                Set<String> candidates = holding == null ? tree.hyperNodes() : holding;
                Set<String> next = new HashSet<>();
                for (String hyperNode : candidates) {
                    if (tree.leafNodes(hyperNode).contains(node)) {
                        next.add(hyperNode);
                    }
                }
                holding = next;
                if (holding.isEmpty()) {
                    break;
                }
            }
            if (holding != null) {
                subJob.setAllocatedHyperNode(lowestTier(holding, tree));
            }
        }
        Optional<String> lowestCommon = Optional.empty();
        for (SubJobState subJob : job.subJobs()) {
            lowestCommon = tree.lowestCommonAncestor(lowestCommon, subJob.allocatedHyperNode());
        }
        job.setAllocatedHyperNode(lowestCommon);
    }

    private static Optional<String> lowestTier(Set<String> hyperNodes, HyperNodeTree tree) {
        return hyperNodes.stream().min(Comparator.comparing(tree::tier).thenComparing(Comparator.naturalOrder()));
    }

    static List<NodeState> nodesOf(String hyperNode, HyperNodeTree tree, Session session) {
        return tree.leafNodes(hyperNode).stream().map(session::node).flatMap(Optional::stream).toList();
    }
}
