package dev.muster.sim.workload;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.QueueName;
import dev.muster.graph.JobGraph;
import dev.muster.graph.NodeId;

/**
 * A job of the workload: one gang (a Philly job, an openb pod) or a graph of gangs (an Alibaba DAG
 * job), submitted at {@code arrivalMillis} after the workload's epoch. A gang of a graph is
 * submitted when all of its parents have succeeded; the job completes with its last gang.
 *
 * @param graph one node per gang, named as the gang
 * @param priority the value of its PodGroup's PriorityClass (0 for none, as traces have), which preempt orders by
 */
public record WorkloadJob(String id, QueueName queue, long arrivalMillis, ImmutableList<GangSpec> gangs, JobGraph graph, int priority) {
    public WorkloadJob {
        requireNonNull(id, "id is null");
        requireNonNull(queue, "queue is null");
        checkArgument(arrivalMillis >= 0, "job %s: arrival is negative: %s", id, arrivalMillis);
        gangs = ImmutableList.copyOf(gangs);
        checkArgument(!gangs.isEmpty(), "job %s has no gang", id);
        requireNonNull(graph, "graph is null");
        checkArgument(graph.size() == gangs.size(), "job %s: %s gangs but %s graph nodes", id, gangs.size(), graph.size());
        for (GangSpec gang : gangs) {
            checkArgument(graph.contains(NodeId.of(gang.name())), "job %s: gang %s is not in the graph", id, gang.name());
        }
    }

    /** A job of priority 0. */
    public WorkloadJob(String id, QueueName queue, long arrivalMillis, ImmutableList<GangSpec> gangs, JobGraph graph) {
        this(id, queue, arrivalMillis, gangs, graph, 0);
    }

    /** A job of one gang. */
    public static WorkloadJob single(String id, QueueName queue, long arrivalMillis, GangSpec gang) {
        return new WorkloadJob(id, queue, arrivalMillis, ImmutableList.of(gang), JobGraph.builder().node(gang.name()).build());
    }

    public WorkloadJob withArrival(long millis) {
        return new WorkloadJob(id, queue, millis, gangs, graph, priority);
    }

    public WorkloadJob withPriority(int value) {
        return new WorkloadJob(id, queue, arrivalMillis, gangs, graph, value);
    }

    /** GPU-seconds of work: every gang's GPUs times its duration. */
    public double gpuSeconds() {
        return gangs.stream().mapToDouble(gang -> gang.gpus() * gang.durationMillis() / 1000.0).sum();
    }

    /** Core-seconds of work. */
    public double cpuSeconds() {
        return gangs.stream().mapToDouble(gang -> gang.total().milliCpu() / 1000.0 * gang.durationMillis() / 1000.0).sum();
    }
}
