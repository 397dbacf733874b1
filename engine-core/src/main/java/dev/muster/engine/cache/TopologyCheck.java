package dev.muster.engine.cache;

import dev.muster.engine.model.HyperNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks the HyperNodes read as one tree before any job is placed in it, and reports each problem on
 * the HyperNode that has it: a member HyperNode that does not exist, a member whose tier is not lower
 * than its parent's, and a cycle of members. The objects are kept: the tree they form is not ready, so
 * the session keeps every job with a network topology pending and says why
 * ({@link dev.muster.engine.topology.HyperNodeTree#problems()}).
 */
final class TopologyCheck {
    private TopologyCheck() {}

    static void check(List<HyperNode> hyperNodes, Map<String, ManifestObject> objects, Problems problems) {
        Map<String, HyperNode> byName = new HashMap<>();
        hyperNodes.forEach(hyperNode -> byName.putIfAbsent(hyperNode.name(), hyperNode));
        for (HyperNode hyperNode : hyperNodes) {
            ManifestObject object = objects.get(hyperNode.name());
            for (int index = 0; index < hyperNode.members().size(); index++) {
                HyperNode.Member member = hyperNode.members().get(index);
                if (!member.hyperNode() || member.exactName().isEmpty()) {
                    continue;
                }
                String field = "spec.members[" + index + "].selector.exactMatch.name";
                HyperNode child = byName.get(member.exactName());
                if (child == null) {
                    problems.add(object.error(field, "HyperNode '" + member.exactName() + "' does not exist; "
                            + "jobs with a network topology wait until it does"));
                } else if (child.tier() >= hyperNode.tier()) {
                    problems.add(object.error(field, "HyperNode '" + child.name() + "' has tier " + child.tier()
                            + ", not lower than this one's tier " + hyperNode.tier() + "; jobs with a network topology wait"));
                }
            }
        }
        Set<String> reported = new HashSet<>();
        for (HyperNode hyperNode : hyperNodes) {
            List<String> cycle = cycleFrom(hyperNode, byName, new ArrayList<>());
            if (!cycle.isEmpty() && reported.add(new TreeSet<>(cycle).toString())) {
                problems.add(objects.get(hyperNode.name()).error("spec.members", "HyperNode is its own ancestor: "
                        + String.join(" -> ", cycle) + "; jobs with a network topology wait"));
            }
        }
    }

    /** The members' path from {@code start} back to itself, or empty when there is no cycle through it. */
    private static List<String> cycleFrom(HyperNode start, Map<String, HyperNode> byName, List<String> path) {
        path.add(start.name());
        for (HyperNode.Member member : start.members()) {
            if (!member.hyperNode()) {
                continue;
            }
            if (member.exactName().equals(path.get(0))) {
                List<String> cycle = new ArrayList<>(path);
                cycle.add(path.get(0));
                return cycle;
            }
            HyperNode child = byName.get(member.exactName());
            if (child != null && !path.contains(child.name())) {
                List<String> cycle = cycleFrom(child, byName, path);
                if (!cycle.isEmpty()) {
                    return cycle;
                }
            }
        }
        path.remove(path.size() - 1);
        return List.of();
    }
}
