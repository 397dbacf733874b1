package dev.muster.engine.plugins.shortestfirst;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Nodes held for one starving gang (EASY backfilling): the nodes expected to be free soonest, by the
 * estimates of what runs on them, until they can hold the whole gang. Until they are free, other jobs
 * may use them only if they are expected to finish before the last of those nodes is (the reservation
 * is due). Rebuilt from the snapshot every session, so it needs no state between cycles.
 *
 * @param job the gang the nodes are held for
 * @param nodes the nodes held
 * @param due when the last held node is expected to be free
 */
record Reservation(JobState job, ImmutableSet<NodeName> nodes, Instant due) {
    Reservation {
        requireNonNull(job, "job is null");
        requireNonNull(nodes, "nodes is null");
        requireNonNull(due, "due is null");
    }

    /**
     * Holds nodes for the gang, or empty when its pods are not known or the cluster's nodes could not
     * hold it even when empty.
     *
     * @param expectedSeconds each job's expected run time, for when the running pods will end
     */
    static Optional<Reservation> hold(JobState job, List<NodeState> nodes, Map<JobState, Double> expectedSeconds, Instant now) {
        Optional<TaskState> first = job.tasksWithStatus(TaskStatus.PENDING).stream().filter(task -> !task.bestEffort()).findFirst();
        int needed = job.minMember() - job.readyTaskCount();
        if (first.isEmpty() || needed <= 0) {
            return Optional.empty();
        }
        Resources pod = first.get().request();
        List<NodeState> candidates = new ArrayList<>();
        for (NodeState node : nodes) {
            if (!node.node().unschedulable() && node.node().ready() && podsThatFit(pod, node.allocatable()) > 0) {
                candidates.add(node);
            }
        }
        Comparator<NodeState> soonest = Comparator.comparing((NodeState node) -> freeAt(node, expectedSeconds, now))
                .thenComparing(NodeState::name);
        candidates.sort(soonest);
        ImmutableSet.Builder<NodeName> held = ImmutableSet.builder();
        Instant due = now;
        for (NodeState node : candidates) {
            if (needed <= 0) {
                break;
            }
            held.add(node.name());
            Instant free = freeAt(node, expectedSeconds, now);
            due = free.isAfter(due) ? free : due;
            needed -= podsThatFit(pod, node.allocatable());
        }
        return needed > 0 ? Optional.empty() : Optional.of(new Reservation(job, held.build(), due));
    }

    /** May a task of another job use a held node: only if it is expected to end before the reservation is due. */
    boolean admits(Optional<Double> expectedSeconds, Instant now) {
        return expectedSeconds.isPresent() && !now.plusMillis((long) (expectedSeconds.get() * 1000)).isAfter(due);
    }

    /** When the node's running pods are expected to have ended: the latest start plus its job's estimate. */
    private static Instant freeAt(NodeState node, Map<JobState, Double> expectedSeconds, Instant now) {
        Instant free = now;
        for (TaskState task : node.tasks()) {
            if (!task.status().isAllocated()) {
                continue;
            }
            Instant started = task.task().started().orElse(now);
            Double expected = expectedSeconds.get(task.job());
            // every job has an expected time when any has one (see ShortestFirstPlugin); else it may run for ever
            Instant end = expected == null ? Instant.MAX : started.plusMillis((long) (expected * 1000));
            free = end.isAfter(free) ? end : free;
        }
        return free;
    }

    private static int podsThatFit(Resources pod, Resources allocatable) {
        int count = 0;
        Resources left = allocatable;
        while (pod.lessEqual(left, Resources.Missing.ZERO) && count < 1024) {
            left = left.subtract(pod);
            count++;
        }
        return count;
    }
}
