package dev.muster.sim.policy;

import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskStatus;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The baseline's view of the nodes in one cycle: allocatable and used resources per node as arrays
 * over a fixed list of resource names, for the per-pod loop. Requests become vectors once per
 * distinct {@link Resources} instance (the pods of a gang share theirs), since the loop and the
 * node totals ask for the same few vectors many thousands of times a cycle. Not thread-safe.
 */
final class NodeTable {
    private final List<String> resources;
    private final Map<Resources, double[]> vectors = new IdentityHashMap<>();
    private final double[][] allocatable;
    private final double[][] used;
    private final int[] pods;
    private final int[] maxPods;
    private final int cpu;
    private final int memory;

    /** @param placed the pods holding resources, in the order their requests are summed */
    NodeTable(ClusterSnapshot snapshot, List<NodeName> names, List<String> resources, List<Task> placed) {
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
        for (Task task : placed) {
            addPlaced(task, index);
        }
    }

    private void addPlaced(Task task, Map<NodeName, Integer> index) {
        if (task.node().isPresent() && !task.status().isTerminated() && task.status() != TaskStatus.PENDING) {
            Integer node = index.get(task.node().get());
            if (node != null) {
                bind(node, vector(task.request()));
            }
        }
    }

    int size() {
        return allocatable.length;
    }

    /** The request over this table's resource names; the same array for the same instance, so callers must not change it. */
    double[] vector(Resources request) {
        double[] vector = vectors.get(request);
        if (vector == null) {
            vector = new double[resources.size()];
            for (int r = 0; r < vector.length; r++) {
                vector[r] = request.get(resources.get(r));
            }
            vectors.put(request, vector);
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
