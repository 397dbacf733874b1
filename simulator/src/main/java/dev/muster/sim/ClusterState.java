package dev.muster.sim;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.QueueState;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.metrics.Timeline;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The simulated API server: nodes, queues and the submitted gangs, from which each cycle's
 * snapshot is built, with the running totals the timeline records. Not thread-safe.
 */
final class ClusterState {
    record PodRef(GangRun gang, int index) {}

    private final Instant epoch;
    private final ImmutableSortedMap<NodeName, ClusterNode> nodes;
    private final ImmutableSortedMap<QueueName, Queue> queues;
    private final List<QueueName> queueOrder;
    private final Map<QueueName, Integer> queueIndex = new HashMap<>();
    private final TreeMap<JobId, GangRun> active = new TreeMap<>();
    private final Map<TaskId, PodRef> pods = new HashMap<>();
    private final String measured;
    private final double gpuCapacity;
    private final double cpuCapacity;
    private final double measuredCapacity;
    private final int[] weights;
    private final double[] queueAllocated;
    private final double[] queueDemand;
    private int pendingPods;
    private double gpuAllocated;
    private double cpuAllocated;

    ClusterState(ClusterSpec cluster, Map<QueueName, Integer> queueWeights, Instant epoch, String measured) {
        this.epoch = epoch;
        this.nodes = cluster.nodes();
        this.measured = measured;
        Resources total = cluster.total();
        this.gpuCapacity = total.get(Resources.GPU);
        this.cpuCapacity = total.milliCpu();
        this.measuredCapacity = total.get(measured);
        ImmutableSortedMap.Builder<QueueName, Queue> builder = ImmutableSortedMap.naturalOrder();
        queueOrder = new ArrayList<>(new TreeMap<>(queueWeights).keySet());
        weights = new int[queueOrder.size()];
        for (int q = 0; q < queueOrder.size(); q++) {
            QueueName name = queueOrder.get(q);
            queueIndex.put(name, q);
            weights[q] = queueWeights.get(name);
            builder.put(name, new Queue(name, name.value(), weights[q], Optional.empty(), Resources.EMPTY, Optional.empty(), Optional.empty(),
                    0, true, QueueState.OPEN, epoch, ImmutableMap.of()));
        }
        this.queues = builder.build();
        this.queueAllocated = new double[queueOrder.size()];
        this.queueDemand = new double[queueOrder.size()];
    }

    List<QueueName> queueOrder() {
        return queueOrder;
    }

    void submit(GangRun gang) {
        active.put(gang.id, gang);
        for (int i = 0; i < gang.tasks.length; i++) {
            pods.put(gang.tasks[i], new PodRef(gang, i));
        }
        queueDemand[queueIndex.get(gang.job.spec.queue())] += gang.spec.total().get(measured);
        pendingPods += gang.spec.podCount();
    }

    /** Removes a finished gang and frees its pods. */
    void finish(GangRun gang) {
        for (int i = 0; i < gang.tasks.length; i++) {
            if (gang.nodes[i] != null) {
                unbind(gang, i);
            }
            pods.remove(gang.tasks[i]);
        }
        active.remove(gang.id);
        pendingPods -= gang.spec.podCount();
        queueDemand[queueIndex.get(gang.job.spec.queue())] -= gang.spec.total().get(measured);
    }

    Optional<PodRef> pod(TaskId task) {
        return Optional.ofNullable(pods.get(task));
    }

    boolean hasNode(NodeName node) {
        return nodes.containsKey(node);
    }

    void bind(GangRun gang, int index, NodeName node) {
        gang.nodes[index] = node;
        gang.bound++;
        pendingPods--;
        count(gang, index, 1);
    }

    void unbind(GangRun gang, int index) {
        gang.nodes[index] = null;
        gang.bound--;
        pendingPods++;
        count(gang, index, -1);
    }

    private void count(GangRun gang, int index, int sign) {
        Resources request = gang.spec.request(index);
        gpuAllocated += sign * request.get(Resources.GPU);
        cpuAllocated += sign * request.milliCpu();
        queueAllocated[queueIndex.get(gang.job.spec.queue())] += sign * request.get(measured);
    }

    boolean hasPendingPods() {
        return pendingPods > 0;
    }

    ClusterSnapshot snapshot() {
        ImmutableSortedMap.Builder<JobId, Job> jobs = ImmutableSortedMap.naturalOrder();
        for (GangRun gang : active.values()) {
            jobs.put(gang.id, gang.toJob(epoch));
        }
        return new ClusterSnapshot(nodes, jobs.build(), queues, ImmutableList.of(), ImmutableMap.of(), ImmutableList.of());
    }

    Optional<GangRun> gang(JobId id) {
        return Optional.ofNullable(active.get(id));
    }

    /** Records the current allocation, with each queue's deserved share by weighted water-filling over demand. */
    void record(Timeline timeline, long now) {
        double[] share = new double[queueAllocated.length];
        for (int q = 0; q < share.length; q++) {
            share[q] = measuredCapacity > 0 ? Math.max(0, queueAllocated[q]) / measuredCapacity : 0;
        }
        double[] deserved = Fairness.deserved(weights, queueDemand, measuredCapacity);
        for (int q = 0; q < deserved.length; q++) {
            deserved[q] = measuredCapacity > 0 ? deserved[q] / measuredCapacity : 0;
        }
        timeline.record(now, gpuCapacity > 0 ? gpuAllocated / gpuCapacity : 0, cpuCapacity > 0 ? cpuAllocated / cpuCapacity : 0, share, deserved);
    }
}
