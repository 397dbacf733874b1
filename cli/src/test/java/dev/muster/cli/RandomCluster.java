package dev.muster.cli;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.ClusterNode;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.LabelRequirement;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.NodeSelectorTerm;
import dev.muster.engine.model.Placement;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.PreferredSchedulingTerm;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.QueueState;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Taint;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.engine.model.TaskStatus;
import dev.muster.engine.model.Toleration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * A seeded random cluster that touches most of what a session decides on: mixed node sizes and GPUs,
 * NoSchedule and PreferNoSchedule taints, unschedulable and not-ready nodes, node pod limits, running
 * and releasing tasks, pods of other schedulers, best-effort and init-container requests, priorities,
 * tolerations, node selectors, preferred node affinity, and four queues, one capped. The same seed
 * gives the same snapshot on every JVM ({@link Random} is specified); the order of the draws is part
 * of the golden digests, so changing it changes them.
 */
final class RandomCluster {
    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final double GIB = 1L << 30;
    private static final String GPU = Resources.GPU;
    private static final String[] ZONES = {"a", "b", "c"};
    private static final String[] QUEUES = {"default", "ml", "batch", "dev"};

    private final Random random;
    private final List<NodeName> names = new ArrayList<>();

    private RandomCluster(long seed) {
        this.random = new Random(seed);
    }

    /** {@code nodeCount} nodes, three jobs per node, half a node's worth of running jobs and other pods. */
    static ClusterSnapshot build(long seed, int nodeCount) {
        return new RandomCluster(seed).snapshot(nodeCount);
    }

    private ClusterSnapshot snapshot(int nodeCount) {
        ImmutableSortedMap<NodeName, ClusterNode> nodes = nodes(nodeCount);
        ImmutableSortedMap.Builder<QueueName, Queue> queues = ImmutableSortedMap.naturalOrder();
        for (int q = 0; q < QUEUES.length; q++) {
            QueueName name = new QueueName(QUEUES[q]);
            Optional<Resources> capability = q == 3 ? Optional.of(Resources.of(200_000, 800.0 * GIB)) : Optional.empty();
            queues.put(name, new Queue(name, name.value(), 1 + q, capability, Resources.EMPTY, Optional.empty(), Optional.empty(),
                    q == 1 ? 1 : 0, true, QueueState.OPEN, START.plusSeconds(q), ImmutableMap.of()));
        }
        ImmutableSortedMap.Builder<JobId, Job> jobs = ImmutableSortedMap.naturalOrder();
        for (int j = 0; j < nodeCount * 3; j++) {
            Job job = job(j, j < nodeCount / 2);
            jobs.put(job.id(), job);
        }
        List<Task> others = new ArrayList<>();
        for (int o = 0; o < nodeCount / 2; o++) {
            TaskId task = new TaskId("other", "pod-" + o);
            Resources request = random.nextBoolean() ? Resources.of(1000, 2.0 * GIB) : Resources.EMPTY;
            others.add(new Task(task, task.toString(), new JobId("other", "none"), "", 0, "", request, request,
                    random.nextInt(10) == 0 ? TaskStatus.RELEASING : TaskStatus.RUNNING, Optional.of(names.get(random.nextInt(names.size()))),
                    START, true, false, false, Placement.ANYWHERE, ImmutableMap.of(), ImmutableMap.of()));
        }
        return new ClusterSnapshot(nodes, jobs.build(), queues.build(), ImmutableList.copyOf(others), ImmutableMap.of(), ImmutableList.of());
    }

    private ImmutableSortedMap<NodeName, ClusterNode> nodes(int nodeCount) {
        ImmutableSortedMap.Builder<NodeName, ClusterNode> nodes = ImmutableSortedMap.naturalOrder();
        for (int i = 0; i < nodeCount; i++) {
            NodeName name = new NodeName(String.format("n-%04d", i));
            int kind = random.nextInt(4);
            Resources size = switch (kind) {
                case 0 -> Resources.of(16_000, 64.0 * GIB);
                case 1 -> Resources.of(32_000, 128.0 * GIB);
                case 2 -> Resources.of(8_000, 64.0 * GIB);
                default -> Resources.of(64_000, 256.0 * GIB).withScalar(GPU, 8000);
            };
            List<Taint> taints = new ArrayList<>();
            if (kind == 3 && random.nextBoolean()) {
                taints.add(new Taint(GPU, "present", "NoSchedule"));
            }
            if (random.nextInt(5) == 0) {
                taints.add(new Taint("spot", "", "PreferNoSchedule"));
            }
            if (random.nextInt(9) == 0) {
                taints.add(new Taint("old", "", "PreferNoSchedule"));
            }
            int maxPods = random.nextInt(6) == 0 ? 6 : 110;
            nodes.put(name, new ClusterNode(name, size, size, maxPods,
                    ImmutableMap.of("zone", ZONES[random.nextInt(3)], "kind", "k" + kind), ImmutableList.copyOf(taints),
                    random.nextInt(40) == 0, random.nextInt(50) != 0));
            names.add(name);
        }
        return nodes.build();
    }

    private Job job(int j, boolean running) {
        JobId id = new JobId(random.nextInt(10) == 0 ? "kube-system" : "ns" + random.nextInt(3), String.format("job-%05d", j));
        int size = 1 + random.nextInt(8);
        int minMember = Math.max(1, size - random.nextInt(3));
        int shape = random.nextInt(6);
        Resources pod = switch (shape) {
            case 0 -> Resources.of(500, 1.0 * GIB);
            case 1 -> Resources.of(2000, 8.0 * GIB);
            case 2 -> Resources.of(4000, 4.0 * GIB).withScalar(GPU, 1000);
            case 3 -> Resources.EMPTY;
            case 4 -> Resources.of(1500, 0);
            default -> Resources.of(8000, 30.0 * GIB);
        };
        Resources init = random.nextInt(8) == 0 ? pod.add(Resources.of(1000, 1.0 * GIB)) : pod;
        int priority = random.nextInt(4);
        Instant created = START.plusSeconds(j % 97).plusMillis(j);
        Placement placement = placement(shape);
        ImmutableList.Builder<Task> tasks = ImmutableList.builder();
        String queue = QUEUES[random.nextInt(QUEUES.length)];
        for (int t = 0; t < size; t++) {
            String role = t % 2 == 0 ? "worker" : "ps";
            TaskId task = new TaskId(id.namespace(), id.name() + "-" + role + "-" + t);
            TaskStatus status = TaskStatus.PENDING;
            Optional<NodeName> node = Optional.empty();
            if (running) {
                status = random.nextInt(12) == 0 ? TaskStatus.RELEASING : TaskStatus.RUNNING;
                node = Optional.of(names.get(random.nextInt(names.size())));
            }
            tasks.add(new Task(task, task.toString(), id, random.nextInt(3) == 0 ? "" : role,
                    priority + (t == 0 ? 1 : 0), random.nextInt(20) == 0 ? "system-node-critical" : "", pod, init, status, node,
                    created, random.nextInt(5) != 0, false, random.nextInt(30) == 0, placement, ImmutableMap.of(), ImmutableMap.of()));
        }
        PodGroupPhase phase = running ? PodGroupPhase.RUNNING : (random.nextInt(3) == 0 ? PodGroupPhase.PENDING : PodGroupPhase.INQUEUE);
        Optional<Resources> minResources = random.nextBoolean() ? Optional.of(pod.multiply(minMember)) : Optional.empty();
        return new Job(id, id.toString(), new QueueName(queue), minMember, ImmutableMap.of(), minResources,
                priority * 10, "", phase, created, Optional.empty(), ImmutableMap.of(), tasks.build(), ImmutableList.of());
    }

    private Placement placement(int shape) {
        List<Toleration> tolerations = new ArrayList<>();
        if (shape == 2 || random.nextInt(4) == 0) {
            tolerations.add(new Toleration(GPU, "Exists", "", ""));
        }
        if (random.nextInt(3) == 0) {
            tolerations.add(new Toleration("spot", "Exists", "", "PreferNoSchedule"));
        }
        ImmutableMap<String, String> selector = random.nextInt(10) == 0 ? ImmutableMap.of("zone", ZONES[random.nextInt(3)]) : ImmutableMap.of();
        Placement placement = new Placement(selector, ImmutableList.of(), ImmutableList.copyOf(tolerations));
        if (random.nextInt(4) == 0) {
            placement = placement.withPreferredNodeAffinity(ImmutableList.of(new PreferredSchedulingTerm(1 + random.nextInt(50),
                    new NodeSelectorTerm(ImmutableList.of(new LabelRequirement("zone", "In", ImmutableList.of(ZONES[random.nextInt(3)]))),
                            ImmutableList.of()))));
        }
        return placement;
    }
}
