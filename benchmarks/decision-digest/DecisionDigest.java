package dev.muster.cli;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import com.google.inject.Guice;
import com.google.inject.Injector;
import dev.muster.engine.EngineModule;
import dev.muster.engine.config.DefaultSchedulerConfig;
import dev.muster.engine.config.SchedulerConfigLoader;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.*;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.*;
import dev.muster.engine.model.Queue;

/**
 * Correctness guard for performance work: prints a digest of the full session result (binds, evictions,
 * pipelined tasks, every job outcome and reason) for synthetic and seeded random clusters under several
 * configurations. Run it before and after a change; every line must be identical. Not built by Maven.
 */
public final class DecisionDigest {
    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    static final String GPU = Resources.GPU;

    public static void main(String[] args) throws Exception {
        Injector injector = Guice.createInjector(new EngineModule(), new CliModule());
        SchedulerConfigLoader loader = injector.getInstance(SchedulerConfigLoader.class);
        Clock clock = Clock.fixed(START.plusSeconds(3600), ZoneOffset.UTC);
        String def = DefaultSchedulerConfig.text();
        Map<String, SessionConfig> configs = new LinkedHashMap<>();
        configs.put("alloc", loader.parse("g", def.replaceFirst("(?m)^actions:.*$", "actions: \"allocate\"")));
        configs.put("full", loader.parse("g", def));
        configs.put("evict", loader.parse("g", def.replaceFirst("(?m)^actions:.*$", "actions: \"enqueue, allocate, preempt, reclaim, backfill\"")));
        configs.put("custom", loader.parse("g", """
            actions: "enqueue, allocate, preempt, backfill"
            tiers:
            - plugins:
              - name: priority
              - name: gang
              - name: conformance
            - plugins:
              - name: drf
              - name: predicates
              - name: proportion
              - name: nodeorder
                arguments:
                  mostrequested.weight: 2
                  nodeaffinity.weight: 3
              - name: binpack
                arguments:
                  binpack.weight: 5
                  binpack.cpu: 2
                  binpack.resources: nvidia.com/gpu
                  binpack.resources.nvidia.com/gpu: 4
            """));
        configs.put("strategy", loader.parse("g", """
            actions: "allocate, backfill"
            tiers:
            - plugins:
              - name: priority
              - name: gang
            - plugins:
              - name: drf
              - name: predicates
              - name: proportion
              - name: resource-strategy-fit
              - name: nodeorder
            """));
        boolean big = args.length > 0 && args[0].equals("big");
        List<Object[]> snapshots = new ArrayList<>();
        snapshots.add(new Object[] {"synthetic-200-3000-5", SyntheticCluster.build(200, 3000, 5, 3)});
        snapshots.add(new Object[] {"synthetic-1000-10000-8", SyntheticCluster.build(1000, 10000, 8, 4)});
        if (big) {
            snapshots.add(new Object[] {"synthetic-5000-50000-8", SyntheticCluster.build(5000, 50000, 8, 4)});
        }
        for (int seed = 1; seed <= 8; seed++) {
            snapshots.add(new Object[] {"random-" + seed, random(seed, seed <= 4 ? 60 : 400)});
        }
        for (Object[] entry : snapshots) {
            for (Map.Entry<String, SessionConfig> config : configs.entrySet()) {
                String name = (String) entry[0];
                if (name.startsWith("synthetic") && !config.getKey().equals("alloc") && !config.getKey().equals("custom")) {
                    continue;
                }
                if (name.startsWith("synthetic") && big && !name.contains("5000") ) {
                    continue;
                }
                SessionResult result;
                try {
                    result = Session.run((ClusterSnapshot) entry[1], config.getValue(), clock);
                } catch (RuntimeException e) {
                    System.out.println(name + " " + config.getKey() + " EXCEPTION " + e);
                    continue;
                }
                String text = result.toString();
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                byte[] digest = md.digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                System.out.printf("%-24s %-8s binds=%d evictions=%d pipelined=%d sha=%s%n", name, config.getKey(),
                        result.binds().size(), result.evictions().size(), result.pipelined().size(), HexFormat.of().formatHex(digest, 0, 8));
                if (args.length > 1) {
                    java.nio.file.Files.writeString(java.nio.file.Path.of(args[1], name + "-" + config.getKey() + ".txt"),
                            text.replace("), ", "),\n"));
                }
            }
        }
    }

    static ClusterSnapshot random(long seed, int nodeCount) {
        Random r = new Random(seed);
        ImmutableSortedMap.Builder<NodeName, ClusterNode> nodes = ImmutableSortedMap.naturalOrder();
        List<NodeName> names = new ArrayList<>();
        String[] zones = {"a", "b", "c"};
        for (int i = 0; i < nodeCount; i++) {
            NodeName name = new NodeName(String.format("n-%04d", i));
            int kind = r.nextInt(4);
            Resources size = switch (kind) {
                case 0 -> Resources.of(16_000, 64.0 * (1L << 30));
                case 1 -> Resources.of(32_000, 128.0 * (1L << 30));
                case 2 -> Resources.of(8_000, 64.0 * (1L << 30));
                default -> Resources.of(64_000, 256.0 * (1L << 30)).withScalar(GPU, 8000);
            };
            List<Taint> taints = new ArrayList<>();
            if (kind == 3 && r.nextBoolean()) taints.add(new Taint(GPU, "present", "NoSchedule"));
            if (r.nextInt(5) == 0) taints.add(new Taint("spot", "", "PreferNoSchedule"));
            if (r.nextInt(9) == 0) taints.add(new Taint("old", "", "PreferNoSchedule"));
            int maxPods = r.nextInt(6) == 0 ? 6 : 110;
            nodes.put(name, new ClusterNode(name, size, size, maxPods,
                    ImmutableMap.of("zone", zones[r.nextInt(3)], "kind", "k" + kind), ImmutableList.copyOf(taints),
                    r.nextInt(40) == 0, r.nextInt(50) != 0));
            names.add(name);
        }
        ImmutableSortedMap.Builder<QueueName, Queue> queues = ImmutableSortedMap.naturalOrder();
        String[] queueNames = {"default", "ml", "batch", "dev"};
        for (int q = 0; q < queueNames.length; q++) {
            QueueName qn = new QueueName(queueNames[q]);
            Optional<Resources> cap = q == 3 ? Optional.of(Resources.of(200_000, 800.0 * (1L << 30))) : Optional.empty();
            queues.put(qn, new Queue(qn, qn.value(), 1 + q, cap, Resources.EMPTY, Optional.empty(), Optional.empty(),
                    q == 1 ? 1 : 0, true, QueueState.OPEN, START.plusSeconds(q), ImmutableMap.of()));
        }
        ImmutableSortedMap.Builder<JobId, Job> jobs = ImmutableSortedMap.naturalOrder();
        List<Task> others = new ArrayList<>();
        int jobCount = nodeCount * 3;
        for (int j = 0; j < jobCount; j++) {
            JobId id = new JobId(r.nextInt(10) == 0 ? "kube-system" : "ns" + r.nextInt(3), String.format("job-%05d", j));
            boolean running = j < nodeCount / 2;
            int size = 1 + r.nextInt(8);
            int minMember = Math.max(1, size - r.nextInt(3));
            int shape = r.nextInt(6);
            Resources pod = switch (shape) {
                case 0 -> Resources.of(500, 1.0 * (1L << 30));
                case 1 -> Resources.of(2000, 8.0 * (1L << 30));
                case 2 -> Resources.of(4000, 4.0 * (1L << 30)).withScalar(GPU, 1000);
                case 3 -> Resources.EMPTY;
                case 4 -> Resources.of(1500, 0);
                default -> Resources.of(8000, 30.0 * (1L << 30));
            };
            Resources init = r.nextInt(8) == 0 ? pod.add(Resources.of(1000, 1.0 * (1L << 30))) : pod;
            int priority = r.nextInt(4);
            Instant created = START.plusSeconds(j % 97).plusMillis(j);
            List<Toleration> tolerations = new ArrayList<>();
            if (shape == 2 || r.nextInt(4) == 0) tolerations.add(new Toleration(GPU, "Exists", "", ""));
            if (r.nextInt(3) == 0) tolerations.add(new Toleration("spot", "Exists", "", "PreferNoSchedule"));
            ImmutableMap<String, String> selector = r.nextInt(10) == 0 ? ImmutableMap.of("zone", zones[r.nextInt(3)]) : ImmutableMap.of();
            Placement placement = new Placement(selector, ImmutableList.of(), ImmutableList.copyOf(tolerations));
            if (r.nextInt(4) == 0) {
                placement = placement.withPreferredNodeAffinity(ImmutableList.of(new PreferredSchedulingTerm(1 + r.nextInt(50),
                        new NodeSelectorTerm(ImmutableList.of(new LabelRequirement("zone", "In", ImmutableList.of(zones[r.nextInt(3)]))), ImmutableList.of()))));
            }
            ImmutableList.Builder<Task> tasks = ImmutableList.builder();
            String queue = queueNames[r.nextInt(queueNames.length)];
            for (int t = 0; t < size; t++) {
                TaskId task = new TaskId(id.namespace(), id.name() + "-" + (t % 2 == 0 ? "worker" : "ps") + "-" + t);
                TaskStatus status = TaskStatus.PENDING;
                Optional<NodeName> node = Optional.empty();
                if (running) {
                    status = r.nextInt(12) == 0 ? TaskStatus.RELEASING : TaskStatus.RUNNING;
                    node = Optional.of(names.get(r.nextInt(names.size())));
                }
                tasks.add(new Task(task, task.toString(), id, r.nextInt(3) == 0 ? "" : (t % 2 == 0 ? "worker" : "ps"),
                        priority + (t == 0 ? 1 : 0), r.nextInt(20) == 0 ? "system-node-critical" : "", pod, init, status, node,
                        created, r.nextInt(5) != 0, false, r.nextInt(30) == 0, placement, ImmutableMap.of(), ImmutableMap.of()));
            }
            PodGroupPhase phase = running ? PodGroupPhase.RUNNING : (r.nextInt(3) == 0 ? PodGroupPhase.PENDING : PodGroupPhase.INQUEUE);
            Optional<Resources> minResources = r.nextBoolean() ? Optional.of(pod.multiply(minMember)) : Optional.empty();
            jobs.put(id, new Job(id, id.toString(), new QueueName(queue), minMember, ImmutableMap.of(), minResources,
                    priority * 10, "", phase, created, Optional.empty(), ImmutableMap.of(), tasks.build(), ImmutableList.of()));
        }
        for (int o = 0; o < nodeCount / 2; o++) {
            TaskId task = new TaskId("other", "pod-" + o);
            Resources req = r.nextBoolean() ? Resources.of(1000, 2.0 * (1L << 30)) : Resources.EMPTY;
            others.add(new Task(task, task.toString(), new JobId("other", "none"), "", 0, "", req, req,
                    r.nextInt(10) == 0 ? TaskStatus.RELEASING : TaskStatus.RUNNING, Optional.of(names.get(r.nextInt(names.size()))),
                    START, true, false, false, Placement.ANYWHERE, ImmutableMap.of(), ImmutableMap.of()));
        }
        return new ClusterSnapshot(nodes.build(), jobs.build(), queues.build(), ImmutableList.copyOf(others), ImmutableMap.of(), ImmutableList.of());
    }
}
