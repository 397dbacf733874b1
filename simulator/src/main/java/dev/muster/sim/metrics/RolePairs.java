package dev.muster.sim.metrics;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.NodeName;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Where the pods of a two-role gang sat relative to each other when the whole gang first ran: of every
 * pair of one pod of the first role (a PS, a DLRM app's CN) and one of the second (a worker, an HN),
 * how many shared a node and how many a rack. It is the placement the {@code task-topology} plugin
 * aims at, measured whether or not a policy has the plugin; a gang of one role has no pairs.
 *
 * @param pairs first-role pods times second-role pods
 * @param sameNode pairs on one node
 * @param sameRack pairs in one rack (those on one node included)
 */
public record RolePairs(long pairs, long sameNode, long sameRack) {
    public static final RolePairs NONE = new RolePairs(0, 0, 0);

    public RolePairs {
        checkArgument(pairs >= 0 && sameNode >= 0 && sameNode <= sameRack && sameRack <= pairs,
                "pairs must satisfy 0 <= sameNode <= sameRack <= pairs: %s, %s, %s", pairs, sameNode, sameRack);
    }

    /** Counts the pairs of the two roles' nodes; {@code rack} gives a node's rack. */
    public static RolePairs count(List<NodeName> first, List<NodeName> second, Function<NodeName, String> rack) {
        requireNonNull(first, "first is null");
        requireNonNull(second, "second is null");
        requireNonNull(rack, "rack is null");
        Map<NodeName, Long> byNode = new TreeMap<>();
        Map<String, Long> byRack = new TreeMap<>();
        for (NodeName node : second) {
            byNode.merge(node, 1L, Long::sum);
            byRack.merge(rack.apply(node), 1L, Long::sum);
        }
        long sameNode = 0;
        long sameRack = 0;
        for (NodeName node : first) {
            sameNode += byNode.getOrDefault(node, 0L);
            sameRack += byRack.getOrDefault(rack.apply(node), 0L);
        }
        return new RolePairs((long) first.size() * second.size(), sameNode, sameRack);
    }

    public RolePairs add(RolePairs other) {
        return new RolePairs(pairs + other.pairs, sameNode + other.sameNode, sameRack + other.sameRack);
    }

    /** The fraction of pairs on one node; 0 without pairs. */
    public double sameNodeFraction() {
        return pairs == 0 ? 0 : (double) sameNode / pairs;
    }

    /** The fraction of pairs in one rack; 0 without pairs. */
    public double sameRackFraction() {
        return pairs == 0 ? 0 : (double) sameRack / pairs;
    }

    /** Every gang's pairs added up. */
    public static RolePairs total(List<GangRecord> gangs) {
        return gangs.stream().map(GangRecord::pairs).reduce(NONE, RolePairs::add);
    }

    /**
     * The pairs per application, for the applications that have any: a job {@code APP@SUFFIX} belongs to
     * {@code APP} (the DLRM loader names an app's jobs so), any other job is its own application.
     */
    public static ImmutableSortedMap<String, RolePairs> byApplication(List<GangRecord> gangs) {
        Map<String, RolePairs> byApp = new TreeMap<>();
        for (GangRecord gang : gangs) {
            if (gang.pairs().pairs() > 0) {
                int at = gang.job().indexOf('@');
                byApp.merge(at < 0 ? gang.job() : gang.job().substring(0, at), gang.pairs(), RolePairs::add);
            }
        }
        return ImmutableSortedMap.copyOf(byApp);
    }
}
