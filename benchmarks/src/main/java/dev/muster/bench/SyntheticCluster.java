package dev.muster.bench;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.QueueState;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import java.time.Instant;
import java.util.Optional;

/**
 * The shape of {@code muster bench}'s cluster, built straight into a snapshot: identical empty nodes of
 * 32 cpu / 128 GiB, and pending pods of 1 cpu / 2 GiB in gangs, dealt round-robin over equal queues.
 * The last gang is smaller when the pods do not divide evenly.
 *
 * @param nodes how many nodes
 * @param pods how many pending pods
 * @param gangSize pods per gang (the gang's minMember)
 * @param queueCount queues the gangs are spread over; the first is {@code default}
 */
public record SyntheticCluster(int nodes, int pods, int gangSize, int queueCount) {
    public static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");
    public static final Resources NODE = Resources.of(32_000, 128.0 * (1L << 30));
    public static final Resources POD = Resources.of(1_000, 2.0 * (1L << 30));
    private static final String NAMESPACE = "bench";

    public SyntheticCluster {
        checkArgument(nodes > 0 && gangSize > 0 && queueCount > 0, "nodes, gangSize and queueCount must be positive");
        checkArgument(pods >= 0, "pods must not be negative");
    }

    /** Reads {@code NODES/PODS}, as the benchmark's parameter is written. */
    public static SyntheticCluster parse(String shape, int gangSize, int queueCount) {
        String[] parts = shape.split("/", -1);
        checkArgument(parts.length == 2, "expected NODES/PODS, not '%s'", shape);
        return new SyntheticCluster(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()), gangSize, queueCount);
    }

    public int gangs() {
        return Math.floorDiv(pods + gangSize - 1, gangSize);
    }

    public ClusterSnapshot snapshot() {
        ImmutableList<QueueName> queueNames = queueNames();
        ImmutableSortedMap.Builder<QueueName, Queue> queues = ImmutableSortedMap.naturalOrder();
        queueNames.forEach(name -> queues.put(name, queue(name)));
        ImmutableSortedMap.Builder<NodeName, ClusterNode> nodeMap = ImmutableSortedMap.naturalOrder();
        for (int n = 0; n < nodes; n++) {
            ClusterNode node = node(n);
            nodeMap.put(node.name(), node);
        }
        ImmutableSortedMap.Builder<JobId, Job> jobs = ImmutableSortedMap.naturalOrder();
        int remaining = pods;
        for (int g = 0; remaining > 0; g++) {
            int members = Math.min(gangSize, remaining);
            remaining -= members;
            Job job = gang(g, members, queueNames.get(g % queueNames.size()));
            jobs.put(job.id(), job);
        }
        return new ClusterSnapshot(nodeMap.build(), jobs.build(), queues.build(), ImmutableList.of(), ImmutableMap.of(), ImmutableList.of());
    }

    private ImmutableList<QueueName> queueNames() {
        ImmutableList.Builder<QueueName> names = ImmutableList.builder();
        names.add(new QueueName("default"));
        for (int q = 1; q < queueCount; q++) {
            names.add(new QueueName("queue-" + q));
        }
        return names.build();
    }

    private static Queue queue(QueueName name) {
        return new Queue(name, "queue/" + name.value(), 1, Optional.empty(), Resources.EMPTY, Optional.empty(), Optional.empty(),
                0, true, QueueState.OPEN, CREATED, ImmutableMap.of());
    }

    private static ClusterNode node(int index) {
        NodeName name = new NodeName("node-" + pad(index, 5));
        return new ClusterNode(name, NODE, NODE, 110, ImmutableMap.of(), ImmutableList.of(), false, true);
    }

    private static Job gang(int index, int members, QueueName queue) {
        JobId id = new JobId(NAMESPACE, "gang-" + pad(index, 6));
        Instant submitted = CREATED.plusSeconds(index);
        ImmutableList.Builder<Task> tasks = ImmutableList.builderWithExpectedSize(members);
        for (int m = 0; m < members; m++) {
            TaskId taskId = new TaskId(NAMESPACE, id.name() + "-" + m);
            tasks.add(new Task(taskId, "pod/" + taskId.name(), id, "worker", 1, "", POD, POD, TaskStatus.PENDING, Optional.empty(),
                    submitted, true, false, false, Placement.ANYWHERE, ImmutableMap.of(), ImmutableMap.of()));
        }
        return new Job(id, "podgroup/" + id.name(), queue, members, ImmutableMap.of(), Optional.of(POD.multiply(members)), 0, "",
                PodGroupPhase.INQUEUE, submitted, Optional.empty(), ImmutableMap.of(), tasks.build(), ImmutableList.of());
    }

    private static String pad(int value, int width) {
        String digits = Integer.toString(value);
        return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
    }
}
