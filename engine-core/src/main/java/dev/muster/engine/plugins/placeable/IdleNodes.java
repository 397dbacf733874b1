package dev.muster.engine.plugins.placeable;

import dev.muster.engine.framework.NodeState;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The idle resources of each schedulable, ready node, less what gangs admitted in this session will
 * take, and a first-fit packing of a gang's pods onto them. Free space only shrinks while a session
 * admits, so for each pod request the nodes below a cursor are known not to fit and are not scanned
 * again: admitting thousands of gangs costs about one pass over the nodes per distinct pod request
 * instead of one per pod. Not thread-safe: one per session.
 */
final class IdleNodes {
    private final List<NodeName> names = new ArrayList<>();
    private final List<Resources> free = new ArrayList<>();
    private final Map<Resources, Integer> cursors = new HashMap<>();
    private Resources total = Resources.EMPTY;

    /** Each node's idle resources plus what {@code extra} says could be freed on it. */
    IdleNodes(List<NodeState> nodes, Function<NodeState, Resources> extra) {
        for (NodeState node : nodes) {
            if (node.node().unschedulable() || !node.node().ready()) {
                continue;
            }
            Resources available = node.idle().add(extra.apply(node));
            names.add(node.name());
            free.add(available);
            total = total.add(available);
        }
    }

    Resources total() {
        return total;
    }

    /** Where each pod of the gang would go, by index into the nodes, or empty when the gang does not fit now. */
    Optional<int[]> fit(GangShape gang) {
        if (!gang.total().lessEqual(total, Resources.Missing.ZERO)) {
            return Optional.empty();
        }
        int[] placement = new int[gang.size()];
        Map<Integer, Resources> taken = new HashMap<>();
        for (int pod = 0; pod < gang.size(); pod++) {
            Resources request = gang.pod(pod);
            int node = cursors.getOrDefault(request, 0);
            while (node < free.size() && !request.lessEqual(remaining(node, taken), Resources.Missing.ZERO)) {
                node++;
            }
            if (node == free.size()) {
                return Optional.empty();
            }
            placement[pod] = node;
            taken.merge(node, request, Resources::add);
        }
        return Optional.of(placement);
    }

    /** Takes the gang's pods off the nodes {@link #fit} chose. */
    void take(GangShape gang, int[] placement) {
        for (int pod = 0; pod < gang.size(); pod++) {
            Resources request = gang.pod(pod);
            free.set(placement[pod], free.get(placement[pod]).subtract(request));
            total = total.subtract(request);
            // the nodes before this one did not fit the request before the gang took its share either
            cursors.merge(request, placement[pod], Math::max);
        }
    }

    /** The node with the most of the gang's largest pod's scarcest resource idle, for reasons. */
    Optional<String> closest(GangShape gang) {
        if (gang.size() == 0 || free.isEmpty()) {
            return Optional.empty();
        }
        Resources request = gang.pod(0);
        int best = 0;
        for (int node = 1; node < free.size(); node++) {
            if (score(request, free.get(node)) > score(request, free.get(best))) {
                best = node;
            }
        }
        return Optional.of(names.get(best) + ", with " + free.get(best) + " idle");
    }

    int fitting(Resources request) {
        int count = 0;
        for (Resources node : free) {
            if (request.lessEqual(node, Resources.Missing.ZERO)) {
                count++;
            }
        }
        return count;
    }

    private Resources remaining(int node, Map<Integer, Resources> taken) {
        Resources used = taken.get(node);
        return used == null ? free.get(node) : free.get(node).subtract(used);
    }

    /** The smallest ratio of idle to requested over the dimensions the pod asks for. */
    private static double score(Resources request, Resources idle) {
        double score = Double.MAX_VALUE;
        for (String name : request.requestedNames()) {
            score = Math.min(score, idle.get(name) / request.get(name));
        }
        return score;
    }
}
