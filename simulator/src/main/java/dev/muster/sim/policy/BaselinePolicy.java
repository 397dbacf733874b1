package dev.muster.sim.policy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * A model of the default kube-scheduler, the per-pod baseline. What it keeps from the real one:
 * <ul>
 *   <li>one pod at a time, from an active queue ordered by priority, then by the time the pod
 *       entered the queue; a pod that does not fit goes back with a new timestamp (as
 *       {@code AddUnschedulableIfNotPresent} stamps it), so it loses its place to older pods;</li>
 *   <li>no gangs, no queues, no admission: any pod that fits is bound, whatever its peers do;</li>
 *   <li>filtering by NodeResourcesFit (every requested resource, and the pod count), visiting nodes
 *       round-robin from where the last pod stopped and stopping after
 *       {@code numFeasibleNodesToFind} feasible ones (all below 100 nodes, else
 *       {@code max(100, n * max(5, 50 - n / 125) / 100)});</li>
 *   <li>scoring by the default plugins that tell these pods apart: NodeResourcesFit
 *       LeastAllocated over cpu and memory (weights 1, integer 0..100) plus
 *       NodeResourcesBalancedAllocation; ties broken uniformly at random with the seeded generator.</li>
 * </ul>
 * Plugins that score every node alike for these pods (taints, affinity, image locality, spread
 * without owners) are left out. Every pending pod is tried once per cycle, in queue order; a pod
 * asking at least as much of every resource as one that already fit nowhere this cycle is not tried
 * (free space only shrinks within a cycle, so it fits nowhere either, and trying it would change
 * nothing: the round-robin start moves by a whole turn and no tie is drawn).
 *
 * <p>Not thread-safe; one instance per simulation run.
 */
public final class BaselinePolicy implements SchedulingPolicy {
    private final Random random;
    private final ActiveQueue queue = new ActiveQueue();
    private int nextStartNode;

    public BaselinePolicy(long seed) {
        this.random = new Random(seed);
    }

    @Override
    public SessionResult schedule(ClusterSnapshot snapshot, Clock clock) {
        List<ActiveQueue.JobEntry> entries = queue.beginCycle(snapshot);
        List<ActiveQueue.Run> runs = ActiveQueue.order(entries);
        if (runs.isEmpty()) {
            queue.clear();
            return result(ImmutableSortedMap.of());
        }
        List<NodeName> names = new ArrayList<>(snapshot.nodes().keySet());
        TreeSet<String> resourceNames = new TreeSet<>();
        snapshot.nodes().values().forEach(node -> resourceNames.addAll(node.allocatable().names()));
        Set<Resources> requests = Collections.newSetFromMap(new IdentityHashMap<>());
        for (ActiveQueue.Run run : runs) {
            if (requests.add(run.group().request())) {
                resourceNames.addAll(run.group().request().names());
            }
        }
        List<Task> placed = new ArrayList<>(snapshot.otherTasks());
        placed.addAll(ActiveQueue.placed(entries));
        NodeTable nodes = new NodeTable(snapshot, names, List.copyOf(resourceNames), placed);
        ImmutableSortedMap.Builder<TaskId, NodeName> binds = ImmutableSortedMap.naturalOrder();
        FailedRequests failed = new FailedRequests();
        for (ActiveQueue.Run run : runs) {
            double[] request = nodes.vector(run.group().request());
            for (Task task : run.tasks()) {
                int node = failed.coversAny(request) ? -1 : place(nodes, request);
                if (node < 0) {
                    // the rest of the run asks the same, so it fits nowhere either
                    failed.add(request);
                    break;
                }
                nodes.bind(node, request);
                binds.put(task.id(), names.get(node));
                run.job().bound(task.id());
            }
        }
        queue.endCycle(entries, clock.millis());
        return result(binds.build());
    }

    private int place(NodeTable nodes, double[] request) {
        int count = nodes.size();
        int toFind = feasibleNodesToFind(count);
        int bestScore = -1;
        int best = -1;
        int ties = 0;
        int found = 0;
        int visited = 0;
        for (; visited < count && found < toFind; visited++) {
            int node = (nextStartNode + visited) % count;
            if (!nodes.fits(node, request)) {
                continue;
            }
            found++;
            int score = nodes.leastAllocated(node, request) + nodes.balanced(node, request);
            if (score > bestScore) {
                bestScore = score;
                best = node;
                ties = 1;
            } else if (score == bestScore) {
                ties++;
                if (random.nextInt(ties) == 0) {
                    best = node;
                }
            }
        }
        nextStartNode = (nextStartNode + visited) % count;
        return best;
    }

    static int feasibleNodesToFind(int nodes) {
        if (nodes < 100) {
            return nodes;
        }
        int percentage = Math.max(5, 50 - nodes / 125);
        return Math.max(100, nodes * percentage / 100);
    }

    private static SessionResult result(ImmutableSortedMap<TaskId, NodeName> binds) {
        return new SessionResult(binds, ImmutableList.of(), ImmutableSortedMap.of(), ImmutableSortedMap.of());
    }
}
