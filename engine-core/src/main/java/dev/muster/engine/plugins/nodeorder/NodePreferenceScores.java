package dev.muster.engine.plugins.nodeorder;

import static dev.muster.engine.plugins.nodeorder.ResourceAllocationScores.MAX_NODE_SCORE;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.PreferredSchedulingTerm;
import dev.muster.engine.model.Taint;
import dev.muster.engine.model.Toleration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-scheduler's NodeAffinity and TaintToleration scores: raw counts per node, then normalized
 * over the candidate nodes to 0..100 (Kubernetes' {@code DefaultNormalizeScore}), so they depend on
 * which nodes compete.
 */
final class NodePreferenceScores {
    private static final String PREFER_NO_SCHEDULE = "PreferNoSchedule";

    private NodePreferenceScores() {}

    /**
     * The summed weights of the pod's preferred node affinity terms each node matches, scaled so the
     * best node scores 100. Empty when the pod has no preferred terms (Kubernetes skips the plugin).
     */
    static Map<NodeName, Long> nodeAffinity(TaskState task, List<NodeState> nodes) {
        List<PreferredSchedulingTerm> terms = task.task().placement().preferredNodeAffinity();
        if (terms.isEmpty()) {
            return Map.of();
        }
        Map<NodeName, Long> raw = new LinkedHashMap<>();
        for (NodeState nodeState : nodes) {
            ClusterNode node = nodeState.node();
            Map<String, String> fields = ImmutableMap.of("metadata.name", node.name().value());
            long sum = 0;
            for (PreferredSchedulingTerm term : terms) {
                if (term.weight() != 0 && term.preference().matches(node.labels(), fields)) {
                    sum += term.weight();
                }
            }
            raw.put(node.name(), sum);
        }
        return normalize(raw, false);
    }

    /**
     * Fewer PreferNoSchedule taints the pod does not tolerate is better: the count, normalized and
     * reversed, so a node with none scores 100.
     */
    static Map<NodeName, Long> taintToleration(TaskState task, List<NodeState> nodes) {
        Placement placement = task.task().placement();
        Map<NodeName, Long> raw = new LinkedHashMap<>();
        for (NodeState nodeState : nodes) {
            raw.put(nodeState.name(), intolerablePreferNoSchedule(placement, nodeState.node()));
        }
        return normalize(raw, true);
    }

    /** {@link #taintToleration} times {@code weight}, added to {@code scores[i]} for {@code nodes.get(i)}, without maps. */
    static void addTaintToleration(TaskState task, List<NodeState> nodes, long weight, double[] scores) {
        Placement placement = task.task().placement();
        long[] raw = new long[nodes.size()];
        long max = 0;
        for (int i = 0; i < raw.length; i++) {
            raw[i] = intolerablePreferNoSchedule(placement, nodes.get(i).node());
            max = Math.max(max, raw[i]);
        }
        for (int i = 0; i < raw.length; i++) {
            scores[i] += (double) (normalize(raw[i], max, true) * weight);
        }
    }

    static boolean anyPreferNoScheduleTaint(List<NodeState> nodes) {
        for (NodeState node : nodes) {
            for (Taint taint : node.node().taints()) {
                if (taint.effect().equals(PREFER_NO_SCHEDULE)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static long intolerablePreferNoSchedule(Placement placement, ClusterNode node) {
        long intolerable = 0;
        for (Taint taint : node.taints()) {
            if (taint.effect().equals(PREFER_NO_SCHEDULE) && !tolerated(placement, taint)) {
                intolerable++;
            }
        }
        return intolerable;
    }

    private static boolean tolerated(Placement placement, Taint taint) {
        for (Toleration toleration : placement.tolerations()) {
            if (toleration.tolerates(taint)) {
                return true;
            }
        }
        return false;
    }

    /** Scales to 0..{@value ResourceAllocationScores#MAX_NODE_SCORE} by the maximum; reversed, subtracts from it. */
    static Map<NodeName, Long> normalize(Map<NodeName, Long> raw, boolean reverse) {
        long max = 0;
        for (long score : raw.values()) {
            max = Math.max(max, score);
        }
        Map<NodeName, Long> normalized = new LinkedHashMap<>();
        for (Map.Entry<NodeName, Long> entry : raw.entrySet()) {
            normalized.put(entry.getKey(), normalize(entry.getValue(), max, reverse));
        }
        return normalized;
    }

    private static long normalize(long raw, long max, boolean reverse) {
        if (max == 0) {
            return reverse ? MAX_NODE_SCORE : raw;
        }
        long score = MAX_NODE_SCORE * raw / max;
        return reverse ? MAX_NODE_SCORE - score : score;
    }
}
