package dev.muster.cli;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A uniform cluster with pending gangs, built directly as a snapshot, for the bench. */
final class SyntheticCluster {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private SyntheticCluster() {}

    static ClusterSnapshot build(int nodeCount, int podCount, int gangSize, int queueCount) {
        ImmutableSortedMap.Builder<NodeName, ClusterNode> nodes = ImmutableSortedMap.naturalOrder();
        Resources nodeSize = Resources.of(32_000, 128.0 * (1L << 30));
        for (int i = 0; i < nodeCount; i++) {
            NodeName name = new NodeName(String.format("node-%05d", i));
            nodes.put(name, new ClusterNode(name, nodeSize, nodeSize, 110, ImmutableMap.of(), ImmutableList.of(), false, true));
        }
        ImmutableSortedMap.Builder<QueueName, Queue> queues = ImmutableSortedMap.naturalOrder();
        for (int q = 0; q < queueCount; q++) {
            QueueName name = new QueueName(q == 0 ? "default" : "queue-" + q);
            queues.put(name, new Queue(name, name.value(), 1, Optional.empty(), Resources.EMPTY, Optional.empty(), Optional.empty(),
                    0, true, QueueState.OPEN, START, ImmutableMap.of()));
        }
        List<QueueName> queueNames = new ArrayList<>(queues.build().keySet());
        Resources podSize = Resources.of(1000, 2.0 * (1L << 30));
        ImmutableSortedMap.Builder<JobId, Job> jobs = ImmutableSortedMap.naturalOrder();
        int jobCount = (podCount + gangSize - 1) / gangSize;
        for (int j = 0; j < jobCount; j++) {
            JobId id = new JobId("bench", String.format("job-%06d", j));
            int size = Math.min(gangSize, podCount - j * gangSize);
            Instant created = START.plusMillis(j);
            ImmutableList.Builder<Task> tasks = ImmutableList.builder();
            for (int t = 0; t < size; t++) {
                TaskId task = new TaskId("bench", id.name() + "-worker-" + t);
                tasks.add(new Task(task, task.toString(), id, "worker", 1, "", podSize, podSize, TaskStatus.PENDING, Optional.empty(),
                        created, true, false, false, Placement.ANYWHERE, ImmutableMap.of(), ImmutableMap.of()));
            }
            jobs.put(id, new Job(id, id.toString(), queueNames.get(j % queueNames.size()), size, ImmutableMap.of(),
                    Optional.of(podSize.multiply(size)), 0, "", PodGroupPhase.INQUEUE, created, Optional.empty(), ImmutableMap.of(),
                    tasks.build(), ImmutableList.of()));
        }
        return new ClusterSnapshot(nodes.build(), jobs.build(), queues.build(), ImmutableList.of(), ImmutableMap.of(), ImmutableList.of());
    }
}
