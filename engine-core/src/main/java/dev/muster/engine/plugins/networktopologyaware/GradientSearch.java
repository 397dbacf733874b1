package dev.muster.engine.plugins.networktopologyaware;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.Resources;
import dev.muster.engine.topology.HyperNodeTree;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Volcano's {@code hyperNodeGradientFn}: the hypernodes a job or subgroup with a hard topology may be
 * placed in, grouped by tier, lowest first. The search starts at the given hypernode, or, for a job
 * already running in a hypernode, at its highest ancestor within the tier limit (when the two overlap);
 * a hypernode qualifies when its tier is within the limit and, for a job not yet running anywhere, its
 * idle or future idle resources cover the minimum the job needs.
 */
final class GradientSearch {
    private final HyperNodeTree tree;
    private final HyperNodeUsage usage;

    GradientSearch(HyperNodeTree tree, HyperNodeUsage usage) {
        this.tree = requireNonNull(tree, "tree is null");
        this.usage = requireNonNull(usage, "usage is null");
    }

    List<List<String>> gradients(String within, int highestTierAllowed, Optional<String> allocatedHyperNode, Resources minimum) {
        Optional<String> root = searchRoot(within, highestTierAllowed, allocatedHyperNode);
        if (root.isEmpty()) {
            return List.of();
        }
        TreeMap<Integer, List<String>> byTier = new TreeMap<>();
        Deque<String> queue = new ArrayDeque<>();
        Set<String> enqueued = new HashSet<>();
        queue.add(root.get());
        enqueued.add(root.get());
        while (!queue.isEmpty()) {
            String current = queue.poll();
            if (eligible(current, highestTierAllowed, allocatedHyperNode, minimum)) {
                byTier.computeIfAbsent(tree.tier(current), ignored -> new ArrayList<>()).add(current);
            }
            for (String child : tree.children(current)) {
                if (enqueued.add(child)) {
                    queue.add(child);
                }
            }
        }
        return List.copyOf(byTier.values());
    }

    private boolean eligible(String hyperNode, int highestTierAllowed, Optional<String> allocatedHyperNode, Resources minimum) {
        if (tree.tier(hyperNode) > highestTierAllowed) {
            return false;
        }
        if (allocatedHyperNode.isPresent()) {
            // a job already running somewhere is not pre-filtered by resources
            return true;
        }
        return usage.status(hyperNode)
                .map(status -> minimum.lessEqual(status.idle(), Resources.Missing.ZERO)
                        || minimum.lessEqual(status.futureIdle(), Resources.Missing.ZERO))
                .orElse(true);
    }

    /**
     * Where to search: the given hypernode, narrowed for a job already running to the highest ancestor of
     * its hypernode within the tier limit; nothing when the two do not overlap.
     */
    Optional<String> searchRoot(String within, int highestTierAllowed, Optional<String> allocatedHyperNode) {
        if (allocatedHyperNode.isEmpty()) {
            return Optional.of(within);
        }
        Optional<String> highestAllowed = Optional.empty();
        for (String ancestor : tree.ancestors(allocatedHyperNode.get())) {
            if (tree.tier(ancestor) > highestTierAllowed) {
                break;
            }
            highestAllowed = Optional.of(ancestor);
        }
        if (highestAllowed.isEmpty()) {
            return Optional.empty();
        }
        String lowestCommon = tree.lowestCommonAncestor(within, highestAllowed.get());
        if (lowestCommon.equals(highestAllowed.get())) {
            return Optional.of(within);
        }
        if (lowestCommon.equals(within)) {
            return highestAllowed;
        }
        return Optional.empty();
    }
}
