package dev.muster.engine.topology;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedSet;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.HyperNode;
import dev.muster.engine.model.NodeName;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The network topology of one snapshot: hypernodes in a tree, each with the real nodes under it, as
 * Volcano's hypernode cache builds it. A Node member is matched by exact name, by a regex found
 * anywhere in the node name (Go's {@code MatchString}) or by labels; a HyperNode member only by exact
 * name. Above the highest tier sits a virtual {@value #CLUSTER_TOP} hypernode holding every node.
 *
 * <p>{@link #problems()} lists what Volcano would refuse (a hypernode claimed by two parents, a cycle,
 * a bad regex); allocation should not trust a tree with problems, as Volcano waits until its
 * hypernodes are ready.
 */
public final class HyperNodeTree {
    public static final String CLUSTER_TOP = "<cluster-top>";

    private final ImmutableMap<String, Integer> tiers;
    private final ImmutableMap<String, String> parents;
    private final ImmutableMap<String, ImmutableSortedSet<NodeName>> leafNodes;
    private final ImmutableList<String> problems;
    private final ImmutableMap<String, Integer> tiersByName;

    private HyperNodeTree(Map<String, Integer> tiers, Map<String, String> parents, Map<String, ImmutableSortedSet<NodeName>> leafNodes,
            List<String> problems, Map<String, Integer> tiersByName) {
        this.tiers = ImmutableMap.copyOf(tiers);
        this.tiersByName = ImmutableMap.copyOf(tiersByName);
        this.parents = ImmutableMap.copyOf(parents);
        this.leafNodes = ImmutableMap.copyOf(leafNodes);
        this.problems = ImmutableList.copyOf(problems);
    }

    public static HyperNodeTree build(Collection<ClusterNode> nodes, Collection<HyperNode> hyperNodes) {
        requireNonNull(nodes, "nodes is null");
        requireNonNull(hyperNodes, "hyperNodes is null");
        Map<String, HyperNode> byName = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (HyperNode hyperNode : hyperNodes) {
            if (byName.put(hyperNode.name(), hyperNode) != null) {
                problems.add("hypernode " + hyperNode.name() + " is defined twice");
            }
        }
        Map<String, String> parents = new HashMap<>();
        for (HyperNode hyperNode : hyperNodes) {
            for (HyperNode.Member member : hyperNode.members()) {
                if (!member.hyperNode() || member.exactName().isEmpty()) {
                    continue;
                }
                HyperNode child = byName.get(member.exactName());
                if (child == null) {
                    // a tree with a hole would place a job in part of a hypernode: wait until the member exists
                    problems.add("hypernode " + hyperNode.name() + ": member hypernode " + member.exactName() + " does not exist");
                    continue;
                }
                if (child.tier() >= hyperNode.tier()) {
                    problems.add("hypernode " + hyperNode.name() + " of tier " + hyperNode.tier() + ": member hypernode " + child.name()
                            + " has tier " + child.tier() + ", not a lower one");
                }
                String previous = parents.putIfAbsent(member.exactName(), hyperNode.name());
                if (previous != null && !previous.equals(hyperNode.name())) {
                    problems.add("hypernode " + member.exactName() + " has two parents: " + previous + " and " + hyperNode.name());
                }
            }
        }
        Map<String, Integer> tiers = new HashMap<>();
        Map<String, ImmutableSortedSet<NodeName>> leaves = new HashMap<>();
        int highestTier = 0;
        for (HyperNode hyperNode : hyperNodes) {
            tiers.put(hyperNode.name(), hyperNode.tier());
            highestTier = Math.max(highestTier, hyperNode.tier());
            leaves.put(hyperNode.name(), ImmutableSortedSet.copyOf(collectLeaves(hyperNode, byName, nodes, new HashSet<>(), problems)));
        }
        tiers.put(CLUSTER_TOP, highestTier + 1);
        leaves.put(CLUSTER_TOP, ImmutableSortedSet.copyOf(nodes.stream().map(ClusterNode::name).toList()));
        for (HyperNode hyperNode : hyperNodes) {
            parents.putIfAbsent(hyperNode.name(), CLUSTER_TOP);
        }
        Map<String, Integer> tiersByName = new HashMap<>();
        for (HyperNode hyperNode : hyperNodes) {
            if (!hyperNode.tierName().isEmpty()) {
                tiersByName.putIfAbsent(hyperNode.tierName(), hyperNode.tier());
            }
        }
        return new HyperNodeTree(tiers, parents, leaves, problems, tiersByName);
    }

    private static Set<NodeName> collectLeaves(HyperNode hyperNode, Map<String, HyperNode> byName, Collection<ClusterNode> nodes,
            Set<String> chain, List<String> problems) {
        Set<NodeName> leaves = new TreeSet<>();
        if (!chain.add(hyperNode.name())) {
            problems.add("hypernode " + hyperNode.name() + " is its own ancestor");
            return leaves;
        }
        for (HyperNode.Member member : hyperNode.members()) {
            if (member.hyperNode()) {
                HyperNode child = byName.get(member.exactName());
                if (child != null) {
                    leaves.addAll(collectLeaves(child, byName, nodes, chain, problems));
                }
                continue;
            }
            leaves.addAll(matchNodes(hyperNode.name(), member, nodes, problems));
        }
        chain.remove(hyperNode.name());
        return leaves;
    }

    private static Set<NodeName> matchNodes(String owner, HyperNode.Member member, Collection<ClusterNode> nodes, List<String> problems) {
        Set<NodeName> matched = new TreeSet<>();
        if (!member.exactName().isEmpty()) {
            nodes.stream().map(ClusterNode::name).filter(name -> name.value().equals(member.exactName())).forEach(matched::add);
        }
        if (!member.regex().isEmpty()) {
            try {
                Pattern pattern = Pattern.compile(member.regex());
                nodes.stream().map(ClusterNode::name).filter(name -> pattern.matcher(name.value()).find()).forEach(matched::add);
            } catch (PatternSyntaxException e) {
                problems.add("hypernode " + owner + ": member regex '" + member.regex() + "' is invalid: " + e.getDescription());
            }
        }
        if (!member.labels().isEmpty()) {
            for (ClusterNode node : nodes) {
                if (node.labels().entrySet().containsAll(member.labels().entrySet())) {
                    matched.add(node.name());
                }
            }
        }
        return matched;
    }

    public ImmutableList<String> problems() {
        return problems;
    }

    /** Every hypernode name, the virtual cluster top included. */
    public Set<String> hyperNodes() {
        return tiers.keySet();
    }

    public int tier(String hyperNode) {
        Integer tier = tiers.get(hyperNode);
        checkArgument(tier != null, "unknown hypernode %s", hyperNode);
        return tier;
    }

    /** The real nodes under a hypernode, at any depth. */
    public ImmutableSortedSet<NodeName> leafNodes(String hyperNode) {
        ImmutableSortedSet<NodeName> leaves = leafNodes.get(hyperNode);
        checkArgument(leaves != null, "unknown hypernode %s", hyperNode);
        return leaves;
    }

    public Optional<String> parent(String hyperNode) {
        return Optional.ofNullable(parents.get(hyperNode));
    }

    /** The hypernodes of one tier, sorted by name. */
    public ImmutableSortedSet<String> hyperNodesOfTier(int tier) {
        return tiers.entrySet().stream()
                .filter(entry -> entry.getValue() == tier)
                .map(Map.Entry::getKey)
                .collect(ImmutableSortedSet.toImmutableSortedSet(String::compareTo));
    }

    /** The hypernodes whose parent this one is, sorted by name. */
    public ImmutableSortedSet<String> children(String hyperNode) {
        return parents.entrySet().stream()
                .filter(entry -> entry.getValue().equals(hyperNode))
                .map(Map.Entry::getKey)
                .collect(ImmutableSortedSet.toImmutableSortedSet(String::compareTo));
    }

    /** The hypernode itself, then its parent, and so on up to the cluster top. */
    public ImmutableList<String> ancestors(String hyperNode) {
        List<String> result = new ArrayList<>();
        for (Optional<String> current = Optional.of(hyperNode); current.isPresent() && !result.contains(current.get());
                current = parent(current.get())) {
            result.add(current.get());
        }
        return ImmutableList.copyOf(result);
    }

    /** Every tier in use, the cluster top's included, lowest first (Volcano's {@code HyperNodesTiers}). */
    public ImmutableList<Integer> tiers() {
        return tiers.values().stream().distinct().sorted().collect(ImmutableList.toImmutableList());
    }

    /** The tier of the hypernodes that carry this {@code spec.tierName}, if any does. */
    public Optional<Integer> tierNamed(String tierName) {
        requireNonNull(tierName, "tierName is null");
        return Optional.ofNullable(tiersByName.get(tierName));
    }

    /**
     * The hypernode of the lowest tier that holds the node, the first by name when several do; empty
     * when none of that tier does (Volcano's {@code FindHyperNodeForNode}).
     */
    public Optional<String> lowestTierHyperNodeOf(NodeName node) {
        int lowest = tiers().get(0);
        for (String hyperNode : hyperNodesOfTier(lowest)) {
            if (leafNodes(hyperNode).contains(node)) {
                return Optional.of(hyperNode);
            }
        }
        return Optional.empty();
    }

    /** As {@link #lowestCommonAncestor(String, String)}, where an absent side yields the other (Volcano's {@code GetLCAHyperNode}). */
    public Optional<String> lowestCommonAncestor(Optional<String> left, Optional<String> right) {
        if (left.isEmpty()) {
            return right;
        }
        if (right.isEmpty()) {
            return left;
        }
        return Optional.of(lowestCommonAncestor(left.get(), right.get()));
    }

    /** The lowest hypernode that holds both, walking up the parents; the cluster top at worst. */
    public String lowestCommonAncestor(String left, String right) {
        Set<String> leftAncestors = new HashSet<>(ancestors(left));
        for (String ancestor : ancestors(right)) {
            if (leftAncestors.contains(ancestor)) {
                return ancestor;
            }
        }
        return CLUSTER_TOP;
    }
}
