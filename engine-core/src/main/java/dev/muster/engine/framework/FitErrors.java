package dev.muster.engine.framework;

import java.util.Map;
import java.util.TreeMap;

/** Why one task fit no node: how many nodes failed for each reason, as kube-scheduler reports it. */
public final class FitErrors {
    private final Map<String, Integer> reasons = new TreeMap<>();
    private int nodes;

    /** Counts one node failing for this reason; a node may fail for several. */
    public void add(String reason) {
        reasons.merge(reason, 1, Integer::sum);
        nodes++;
    }

    public boolean isEmpty() {
        return nodes == 0;
    }

    /** {@code 0/3 nodes are available: 2 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint}. */
    public String describe(int totalNodes) {
        StringBuilder text = new StringBuilder();
        text.append("0/").append(totalNodes).append(" nodes are available");
        String separator = ": ";
        java.util.List<Map.Entry<String, Integer>> sorted = new java.util.ArrayList<>(reasons.entrySet());
        // most common reason first, as kube-scheduler lists them
        sorted.sort(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        for (Map.Entry<String, Integer> entry : sorted) {
            text.append(separator).append(entry.getValue()).append(' ').append(entry.getKey());
            separator = ", ";
        }
        return text.toString();
    }
}
