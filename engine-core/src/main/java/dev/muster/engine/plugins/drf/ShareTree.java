package dev.muster.engine.plugins.drf;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.model.Queue;
import dev.muster.engine.model.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The tree of hierarchical DRF (Volcano's {@code hierarchicalNode}): inner nodes are the levels of the
 * queues' {@code volcano.sh/hierarchy} paths ({@code root/eng/dev}), with the weights of
 * {@code volcano.sh/hierarchy-weights} ({@code 100/50/50}, below 1 counts as 1); leaves are jobs.
 *
 * <p>After every change the whole tree is recomputed bottom up. A leaf is <em>saturated</em> when it
 * holds all it requests of some resource, or requests a resource the cluster has none left of. An
 * inner node rescales its unsaturated children to the smallest dominant share among them (so that a
 * child that asks for little does not make its siblings look rich), adds its saturated children as
 * they are, takes the dominant share of the sum, and is saturated when all its children are.
 *
 * <p>Not thread-safe; copied with {@link #copy} for what-if comparisons.
 */
final class ShareTree {
    private static final String PATH_SEPARATOR = "/";
    static final String HIERARCHY_ANNOTATION = "volcano.sh/hierarchy";
    static final String WEIGHTS_ANNOTATION = "volcano.sh/hierarchy-weights";
    /** Keeps job leaves apart from hierarchy levels that happen to have the same name. */
    private static final String LEAF_PREFIX = "job:";

    private final Resources total;
    private final Node root;

    ShareTree(Resources total) {
        this(total, new Node(1));
    }

    private ShareTree(Resources total, Node root) {
        this.total = requireNonNull(total, "total is null");
        this.root = root;
    }

    ShareTree copy() {
        return new ShareTree(total, root.copy());
    }

    /** Puts a job's leaf under its queue's path, creating the levels that are missing, with its current allocation. */
    void setJob(Queue queue, String job, Resources allocated, Resources request) {
        List<String> path = path(queue);
        String[] weights = queue.annotations().getOrDefault(WEIGHTS_ANNOTATION, "").split(PATH_SEPARATOR, -1);
        Node node = root;
        // the first element names the root itself
        for (int i = 1; i < path.size(); i++) {
            double weight = i < weights.length ? parseWeight(weights[i]) : 1;
            node = node.children.computeIfAbsent(path.get(i), name -> new Node(weight));
        }
        Node leaf = node.children.computeIfAbsent(LEAF_PREFIX + job, name -> new Node(1));
        leaf.leaf = true;
        leaf.allocated = allocated;
        leaf.share = DrfPlugin.share(allocated, total);
        leaf.request = request;
    }

    /** Recomputes every node; {@code totalAllocated} tells which resources the cluster still has. */
    void recompute(Resources totalAllocated) {
        List<String> demanding = new ArrayList<>();
        for (String name : total.requestedNames()) {
            if (totalAllocated.get(name) < total.get(name)) {
                demanding.add(name);
            }
        }
        recompute(root, demanding);
    }

    private void recompute(Node node, List<String> demanding) {
        if (node.leaf) {
            node.saturated = saturated(node.allocated, node.request, demanding);
            return;
        }
        double minimumShare = 1;
        for (Node child : node.children.values()) {
            recompute(child, demanding);
            if (child.share != 0 && !child.saturated) {
                minimumShare = Math.min(minimumShare, DrfPlugin.share(child.allocated, total));
            }
        }
        Resources allocated = Resources.EMPTY;
        boolean saturated = true;
        for (Node child : node.children.values()) {
            saturated &= child.saturated;
            if (child.share == 0) {
                continue;
            }
            allocated = allocated.add(child.saturated ? child.allocated : child.allocated.multiply(minimumShare / child.share));
        }
        node.allocated = allocated;
        node.share = DrfPlugin.share(allocated, total);
        node.saturated = saturated;
    }

    private static boolean saturated(Resources allocated, Resources request, List<String> demanding) {
        for (String name : allocated.requestedNames()) {
            double requested = request.get(name);
            if (requested != 0 && allocated.get(name) >= requested) {
                return true;
            }
            if (requested != 0 && !demanding.contains(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Compares two queues level by level from the root: at the first level where their nodes differ,
     * an unsaturated node goes first, then the smaller share per weight. Negative when {@code left}
     * goes first; 0 when the paths cannot tell them apart.
     */
    double compare(Queue left, Queue right) {
        List<String> leftPath = path(left);
        List<String> rightPath = path(right);
        Node leftNode = root;
        Node rightNode = root;
        int depth = Math.min(leftPath.size(), rightPath.size());
        for (int i = 0; i < depth; i++) {
            if (leftNode == null || rightNode == null) {
                // a level with no job under it yet: Volcano never builds it, so it cannot rank it
                return 0;
            }
            if (leftNode.saturated != rightNode.saturated) {
                return leftNode.saturated ? 1 : -1;
            }
            double leftShare = leftNode.share / leftNode.weight;
            double rightShare = rightNode.share / rightNode.weight;
            if (leftShare != rightShare) {
                return leftShare - rightShare;
            }
            if (i < depth - 1) {
                leftNode = leftNode.children.get(leftPath.get(i + 1));
                rightNode = rightNode.children.get(rightPath.get(i + 1));
            }
        }
        return 0;
    }

    /** The node of a queue's own level, for tests and diagnostics. */
    Optional<Node> queueNode(Queue queue) {
        Node node = root;
        List<String> path = path(queue);
        for (int i = 1; i < path.size() && node != null; i++) {
            node = node.children.get(path.get(i));
        }
        return Optional.ofNullable(node);
    }

    private static List<String> path(Queue queue) {
        return List.of(queue.annotations().getOrDefault(HIERARCHY_ANNOTATION, "").split(PATH_SEPARATOR, -1));
    }

    private static double parseWeight(String text) {
        try {
            return Math.max(1, Double.parseDouble(text.trim()));
        } catch (NumberFormatException e) {
            // Volcano reads an unparsable weight as 0, which counts as 1
            return 1;
        }
    }

    /** One level or job; mutable, owned by its tree. */
    static final class Node {
        private final double weight;
        private final Map<String, Node> children = new TreeMap<>();
        private boolean leaf;
        private Resources allocated = Resources.EMPTY;
        private Resources request = Resources.EMPTY;
        private double share;
        private boolean saturated;

        private Node(double weight) {
            this.weight = weight;
        }

        double share() {
            return share;
        }

        boolean saturated() {
            return saturated;
        }

        Resources allocated() {
            return allocated;
        }

        private Node copy() {
            Node copy = new Node(weight);
            copy.leaf = leaf;
            copy.allocated = allocated;
            copy.request = request;
            copy.share = share;
            copy.saturated = saturated;
            children.forEach((name, child) -> copy.children.put(name, child.copy()));
            return copy;
        }
    }
}
