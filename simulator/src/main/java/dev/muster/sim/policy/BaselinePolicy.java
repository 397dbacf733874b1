package dev.muster.sim.policy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
 * without owners) are left out. Every pending pod is tried once per cycle.
 *
 * <p>Not thread-safe; one instance per simulation run.
 */
public final class BaselinePolicy implements SchedulingPolicy {
    private static final Comparator<Task> PRIORITY_ORDER = Comparator.comparingInt(Task::priority).reversed();

    private final Random random;
    private final Map<TaskId, Long> queuedAt = new HashMap<>();
    private int nextStartNode;

    public BaselinePolicy(long seed) {
        this.random = new Random(seed);
    }

    @Override
    public SessionResult schedule(ClusterSnapshot snapshot, Clock clock) {
        long now = clock.millis();
        List<NodeName> names = new ArrayList<>(snapshot.nodes().keySet());
        TreeSet<String> resourceNames = new TreeSet<>();
        snapshot.nodes().values().forEach(node -> resourceNames.addAll(node.allocatable().names()));
        List<Task> pending = new ArrayList<>();
        for (Job job : snapshot.jobs().values()) {
            for (Task task : job.tasks()) {
                if (task.status() == TaskStatus.PENDING && !task.gated()) {
                    pending.add(task);
                    resourceNames.addAll(task.request().names());
                }
            }
        }
        if (pending.isEmpty()) {
            queuedAt.clear();
            return result(ImmutableSortedMap.of());
        }
        NodeTable nodes = new NodeTable(snapshot, names, List.copyOf(resourceNames));
        Map<TaskId, Long> stillPending = new HashMap<>();
        for (Task task : pending) {
            stillPending.put(task.id(), queuedAt.getOrDefault(task.id(), task.created().toEpochMilli()));
        }
        queuedAt.clear();
        queuedAt.putAll(stillPending);
        pending.sort(PRIORITY_ORDER.thenComparing(task -> queuedAt.get(task.id())).thenComparing(Task::created).thenComparing(Task::id));
        ImmutableSortedMap.Builder<TaskId, NodeName> binds = ImmutableSortedMap.naturalOrder();
        List<double[]> failed = new ArrayList<>();
        for (Task task : pending) {
            double[] request = nodes.vector(task.request());
            int node = dominatedByFailure(request, failed) ? -1 : place(nodes, request);
            if (node < 0) {
                failed.add(request);
                queuedAt.put(task.id(), now);
                continue;
            }
            nodes.bind(node, request);
            binds.put(task.id(), names.get(node));
            queuedAt.remove(task.id());
        }
        return result(binds.build());
    }

    /** A pod asking at least as much as one that fit nowhere this cycle fits nowhere either: free space only shrinks. */
    private static boolean dominatedByFailure(double[] request, List<double[]> failed) {
        for (double[] smaller : failed) {
            boolean dominated = true;
            for (int r = 0; r < request.length && dominated; r++) {
                dominated = request[r] >= smaller[r];
            }
            if (dominated) {
                return true;
            }
        }
        return false;
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

    /** Free resources per node as arrays, for the per-pod loop. */
    private static final class NodeTable {
        private final List<String> resources;
        private final double[][] allocatable;
        private final double[][] used;
        private final int[] pods;
        private final int[] maxPods;
        private final int cpu;
        private final int memory;

        NodeTable(ClusterSnapshot snapshot, List<NodeName> names, List<String> resources) {
            this.resources = resources;
            this.cpu = resources.indexOf(Resources.CPU);
            this.memory = resources.indexOf(Resources.MEMORY);
            Map<NodeName, Integer> index = new HashMap<>();
            allocatable = new double[names.size()][];
            used = new double[names.size()][resources.size()];
            pods = new int[names.size()];
            maxPods = new int[names.size()];
            for (int i = 0; i < names.size(); i++) {
                ClusterNode node = snapshot.nodes().get(names.get(i));
                index.put(names.get(i), i);
                allocatable[i] = vector(node.ready() && !node.unschedulable() ? node.allocatable() : Resources.EMPTY);
                maxPods[i] = node.maxPods();
            }
            List<Task> placed = new ArrayList<>(snapshot.otherTasks());
            snapshot.jobs().values().forEach(job -> placed.addAll(job.tasks()));
            for (Task task : placed) {
                if (task.node().isPresent() && !task.status().isTerminated() && task.status() != TaskStatus.PENDING) {
                    Integer node = index.get(task.node().get());
                    if (node != null) {
                        bind(node, vector(task.request()));
                    }
                }
            }
        }

        int size() {
            return allocatable.length;
        }

        double[] vector(Resources resources) {
            double[] vector = new double[this.resources.size()];
            for (int r = 0; r < vector.length; r++) {
                vector[r] = resources.get(this.resources.get(r));
            }
            return vector;
        }

        boolean fits(int node, double[] request) {
            if (pods[node] >= maxPods[node]) {
                return false;
            }
            for (int r = 0; r < request.length; r++) {
                if (request[r] > 0 && used[node][r] + request[r] > allocatable[node][r] + Resources.EPSILON) {
                    return false;
                }
            }
            return true;
        }

        void bind(int node, double[] request) {
            for (int r = 0; r < request.length; r++) {
                used[node][r] += request[r];
            }
            pods[node]++;
        }

        /** NodeResourcesFit LeastAllocated: per resource {@code (free - request) * 100 / allocatable}, averaged. */
        int leastAllocated(int node, double[] request) {
            return (free(node, cpu, request) + free(node, memory, request)) / 2;
        }

        private int free(int node, int r, double[] request) {
            double capacity = allocatable[node][r];
            if (capacity <= 0) {
                return 0;
            }
            double requested = used[node][r] + request[r];
            return requested > capacity ? 0 : (int) ((capacity - requested) * 100 / capacity);
        }

        /** NodeResourcesBalancedAllocation over cpu and memory: {@code (1 - std of the fractions) * 100}. */
        int balanced(int node, double[] request) {
            double cpuFraction = fraction(node, cpu, request);
            double memoryFraction = fraction(node, memory, request);
            return (int) ((1 - Math.abs(cpuFraction - memoryFraction) / 2) * 100);
        }

        private double fraction(int node, int r, double[] request) {
            double capacity = allocatable[node][r];
            return capacity <= 0 ? 0 : Math.min(1, (used[node][r] + request[r]) / capacity);
        }
    }
}
