package dev.muster.graph;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;

/**
 * What one state update in a {@link GraphRun} caused: nodes that became ready, and nodes skipped
 * because their dependencies can no longer be met, each with the reason. A node that stops being
 * ready without being skipped (an any-join whose only satisfied parent failed) is not listed here:
 * {@link GraphRun#ready()} is the truth, this is the news.
 */
public record StateChanges(ImmutableSortedSet<NodeId> ready, ImmutableSortedMap<NodeId, String> skipped) {
    public static final StateChanges NONE = new StateChanges(ImmutableSortedSet.of(), ImmutableSortedMap.of());

    public StateChanges {
        requireNonNull(ready, "ready is null");
        requireNonNull(skipped, "skipped is null");
    }

    public boolean isEmpty() {
        return ready.isEmpty() && skipped.isEmpty();
    }
}
