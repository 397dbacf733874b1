package dev.muster.engine.plugins.executorreservation;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The room held on nodes for applications' executors, in executor slots per node. Built when the
 * session opens from what is free then: applications in order (the earliest first) take, node by node
 * in name order, as many slots of one executor's request as the node's free room less what earlier
 * applications hold, up to the executors they still miss. What is not free yet is taken as it frees in
 * later cycles, because no other job may use held room; so the room migrates to the earliest
 * application, which is what keeps holds from deadlocking each other. Not thread-safe; one session.
 */
final class ExecutorHolds {
    private final Map<JobState, SparkApplication> holders = new LinkedHashMap<>();
    private final Map<JobState, TreeMap<NodeName, Integer>> slots = new HashMap<>();
    private final Map<NodeName, Resources> heldOnNode = new HashMap<>();
    /** Per job, the slot each placement of its executors let go (empty when it let none go), newest first. */
    private final Map<JobState, Deque<Optional<NodeName>>> released = new HashMap<>();
    private int version;

    private ExecutorHolds() {}

    /** Holds room for the applications, in the order given, on the ready, schedulable nodes. */
    static ExecutorHolds build(List<SparkApplication> applications, List<NodeState> nodes) {
        ExecutorHolds holds = new ExecutorHolds();
        for (SparkApplication application : applications) {
            Resources perExecutor = application.perExecutor().orElseThrow();
            int needed = application.missing();
            TreeMap<NodeName, Integer> taken = new TreeMap<>();
            for (NodeState node : nodes) {
                if (needed == 0) {
                    break;
                }
                if (node.node().unschedulable()) {
                    continue;
                }
                Resources free = node.idle().subtract(holds.held(node.name()));
                int fit = slotsThatFit(perExecutor, free, needed);
                if (fit > 0) {
                    taken.put(node.name(), fit);
                    holds.heldOnNode.merge(node.name(), perExecutor.multiply(fit), Resources::add);
                    needed -= fit;
                }
            }
            holds.holders.put(application.job(), application);
            holds.slots.put(application.job(), taken);
        }
        return holds;
    }

    private static int slotsThatFit(Resources perExecutor, Resources free, int most) {
        int count = 0;
        Resources left = free;
        while (count < most && perExecutor.lessEqual(left, Resources.Missing.ZERO)) {
            left = left.subtract(perExecutor);
            count++;
        }
        return count;
    }

    private Resources held(NodeName node) {
        return heldOnNode.getOrDefault(node, Resources.EMPTY);
    }

    /** What the node holds for applications other than the job's. */
    Resources heldForOthers(NodeName node, JobState job) {
        Resources all = held(node);
        SparkApplication own = holders.get(job);
        if (own == null || all.isEmpty()) {
            return all;
        }
        int ownSlots = slots.get(job).getOrDefault(node, 0);
        return ownSlots == 0 ? all : all.subtract(own.perExecutor().orElseThrow().multiply(ownSlots)).max(Resources.EMPTY);
    }

    /** The holding applications on the node, other than the job's, for messages. */
    List<SparkApplication> holdersOn(NodeName node, JobState except) {
        return holders.values().stream()
                .filter(application -> application.job() != except && slots.get(application.job()).getOrDefault(node, 0) > 0)
                .toList();
    }

    /** What the queue's applications other than the job's hold, summed over nodes. */
    Resources heldInQueue(QueueName queue, JobState except) {
        Resources total = Resources.EMPTY;
        for (SparkApplication application : holders.values()) {
            if (application.job() != except && application.job().queue().equals(queue)) {
                total = total.add(application.perExecutor().orElseThrow().multiply(heldSlots(application.job())));
            }
        }
        return total;
    }

    boolean holds(JobState job) {
        return holders.containsKey(job);
    }

    Set<JobState> holders() {
        return holders.keySet();
    }

    SparkApplication application(JobState job) {
        return requireNonNull(holders.get(job), "job holds nothing");
    }

    int heldSlots(JobState job) {
        return slots.get(job).values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The nodes with room held for the job, with the executor slots held there. */
    Map<NodeName, Integer> slotsOf(JobState job) {
        return Collections.unmodifiableMap(slots.get(job));
    }

    /** Changes whenever a hold does, so filter verdicts remembered under an older version are not reused. */
    int version() {
        return version;
    }

    /**
     * One of the job's executors now holds resources on the node: its slot there is used, or, when it
     * went to free room, one of its slots elsewhere (on the node with the most, then by name) is let go.
     */
    void executorPlaced(JobState job, NodeName node) {
        TreeMap<NodeName, Integer> taken = slots.get(job);
        NodeName release = taken.containsKey(node) ? node : mostHeld(taken);
        released.computeIfAbsent(job, ignored -> new ArrayDeque<>()).push(Optional.ofNullable(release));
        if (release == null) {
            return;
        }
        taken.merge(release, -1, Integer::sum);
        taken.remove(release, 0);
        heldOnNode.merge(release, holders.get(job).perExecutor().orElseThrow().multiply(-1), Resources::add);
        version++;
    }

    /**
     * An executor's placement was undone (statements are undone newest first): the slot its placement
     * let go is held for the job again.
     */
    void executorUnplaced(JobState job) {
        Deque<Optional<NodeName>> stack = released.get(job);
        if (stack == null || stack.isEmpty()) {
            return;
        }
        Optional<NodeName> node = stack.pop();
        if (node.isEmpty()) {
            return;
        }
        slots.get(job).merge(node.get(), 1, Integer::sum);
        heldOnNode.merge(node.get(), holders.get(job).perExecutor().orElseThrow(), Resources::add);
        version++;
    }

    private static NodeName mostHeld(TreeMap<NodeName, Integer> taken) {
        NodeName best = null;
        for (Map.Entry<NodeName, Integer> entry : taken.entrySet()) {
            if (best == null || entry.getValue() > taken.get(best)) {
                best = entry.getKey();
            }
        }
        return best;
    }
}
