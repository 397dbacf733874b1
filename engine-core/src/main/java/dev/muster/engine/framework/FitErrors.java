package dev.muster.engine.framework;

import dev.muster.engine.model.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Why one task fit no node: how many nodes failed for each reason, as kube-scheduler reports it, and,
 * for each resource that was short, how close the best nodes came. Not thread-safe.
 */
public final class FitErrors {
    private final Map<String, Integer> reasons = new TreeMap<>();
    private final Map<String, Closest> closest = new TreeMap<>();
    private int nodes;

    /** The most of one resource any node had free, how many nodes had that much, and what the task asks. */
    private record Closest(Resources free, int nodes, Resources request) {}

    /** Counts one node failing for this reason; a node may fail for several. */
    public void add(String reason) {
        reasons.merge(reason, 1, Integer::sum);
        nodes++;
    }

    /**
     * Counts one node that has too little of {@code resource} free for the request ({@code Insufficient
     * resource}), and remembers the nodes with the most of it free.
     */
    public void addInsufficient(String resource, Resources request, Resources free) {
        add("Insufficient " + resource);
        Closest best = closest.get(resource);
        double amount = free.get(resource);
        if (best == null || amount > best.free().get(resource) + Resources.EPSILON) {
            closest.put(resource, new Closest(free, 1, request));
        } else if (Math.abs(amount - best.free().get(resource)) < Resources.EPSILON) {
            closest.put(resource, new Closest(best.free(), best.nodes() + 1, request));
        }
    }

    public boolean isEmpty() {
        return nodes == 0;
    }

    /**
     * {@code 0/3 nodes are available: 2 Insufficient nvidia.com/gpu (asks 8, the closest 2 nodes have 4
     * free), 1 node(s) had untolerated taint}; {@code (asks 8, no node has any free)} when none has any.
     */
    public String describe(int totalNodes) {
        StringBuilder text = new StringBuilder();
        text.append("0/").append(totalNodes).append(" nodes are available");
        String separator = ": ";
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(reasons.entrySet());
        // most common reason first, as kube-scheduler lists them
        sorted.sort(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        for (Map.Entry<String, Integer> entry : sorted) {
            text.append(separator).append(entry.getValue()).append(' ').append(entry.getKey());
            separator = ", ";
            if (entry.getKey().startsWith("Insufficient ")) {
                Closest best = closest.get(entry.getKey().substring("Insufficient ".length()));
                if (best != null) {
                    String resource = entry.getKey().substring("Insufficient ".length());
                    text.append(" (asks ").append(best.request().format(resource));
                    if (best.free().get(resource) < Resources.EPSILON) {
                        text.append(", no node has any free)");
                    } else {
                        text.append(", the closest ").append(best.nodes() == 1 ? "node has " : best.nodes() + " nodes have ")
                                .append(best.free().format(resource)).append(" free)");
                    }
                }
            }
        }
        return text.toString();
    }
}
