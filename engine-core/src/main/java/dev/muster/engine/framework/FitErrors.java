package dev.muster.engine.framework;

import java.util.Map;
import java.util.TreeMap;

/** Why one task fit no node: how many nodes failed for each reason, as kube-scheduler reports it. */
public final class FitErrors {
    private final Map<String, Integer> reasons = new TreeMap<>();
    private int nodes;

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
        for (Map.Entry<String, Integer> entry : reasons.entrySet()) {
            text.append(separator).append(entry.getValue()).append(' ').append(entry.getKey());
            separator = ", ";
        }
        return text.toString();
    }
}
