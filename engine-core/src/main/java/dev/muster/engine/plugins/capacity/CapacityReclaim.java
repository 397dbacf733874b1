package dev.muster.engine.plugins.capacity;

import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.framework.VictimOrder;
import dev.muster.engine.model.Queue;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.queue.Quota;
import dev.muster.engine.queue.QueueAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which running tasks a reclaimer may take, with capacity's rules (Volcano's capacity
 * {@code ReclaimableFn}). Candidates are visited in victim order. A candidate is skipped when it
 * requests nothing the reclaimer needs, or when taking it would leave its queue below its guarantee.
 * It is a victim when it uses nothing its queue deserves, or when its queue holds more than it deserves
 * on a dimension the candidate uses; with {@code ancestorReclaimLevel}, the candidate's ancestors in
 * other subtrees must also hold more than they deserve. Each victim's request is taken off its queue's
 * (and those ancestors') running allocation before the next candidate is judged.
 */
final class CapacityReclaim {
    private final Session session;
    private final QueueTree tree;
    private final boolean hierarchical;
    private final int ancestorReclaimLevel;

    CapacityReclaim(Session session, QueueTree tree, boolean hierarchical, int ancestorReclaimLevel) {
        this.session = session;
        this.tree = tree;
        this.hierarchical = hierarchical;
        this.ancestorReclaimLevel = ancestorReclaimLevel;
    }

    List<TaskState> victims(TaskState reclaimer, List<TaskState> candidates) {
        Optional<QueueAttributes> reclaimerQueue = tree.get(reclaimer.job().queue());
        if (reclaimerQueue.isEmpty()) {
            return List.of();
        }
        List<TaskState> ordered = new ArrayList<>(candidates);
        ordered.sort(VictimOrder.forPreemptor(session, reclaimer));
        Map<QueueName, Resources> allocations = new HashMap<>();
        List<TaskState> victims = new ArrayList<>();
        for (TaskState candidate : ordered) {
            Optional<QueueAttributes> found = tree.get(candidate.job().queue());
            if (found.isEmpty() || !Quota.intersects(candidate.request(), reclaimer.initRequest())) {
                continue;
            }
            QueueAttributes queue = found.get();
            Resources allocated = allocations.computeIfAbsent(queue.name(), name -> queue.allocated());
            if (!queue.guarantee().lessEqual(allocated.subtract(candidate.request()), Resources.Missing.ZERO)) {
                continue;
            }
            if (!eligibleInOwnQueue(reclaimer, reclaimerQueue.get(), candidate, queue, allocated)) {
                continue;
            }
            Optional<Map<QueueName, Resources>> ancestorAllocations = eligibleInAncestors(reclaimerQueue.get(), candidate, queue, allocations);
            if (ancestorAllocations.isEmpty()) {
                continue;
            }
            allocations.put(queue.name(), allocated.subtract(candidate.request()));
            ancestorAllocations.get().forEach((name, held) -> allocations.put(name, held.subtract(candidate.request())));
            victims.add(candidate);
        }
        return victims;
    }

    private boolean eligibleInOwnQueue(TaskState reclaimer, QueueAttributes reclaimerQueue, TaskState candidate,
            QueueAttributes queue, Resources allocated) {
        if (isImmediateVictim(candidate, queue.deserved())) {
            // under a shared ancestor, a reclaimer that deserves nothing it asks for has no real contention
            return !(checksAncestors() && sharesNonRootAncestor(reclaimerQueue, queue)
                    && !Quota.intersects(reclaimer.request(), reclaimerQueue.deserved()));
        }
        return Quota.exceedsOnRelevantDimensions(allocated, queue.deserved(), candidate.request());
    }

    /**
     * The running allocations of the ancestors that had to be checked, when each of them holds more
     * than it deserves; empty when one does not.
     */
    private Optional<Map<QueueName, Resources>> eligibleInAncestors(QueueAttributes reclaimerQueue, TaskState candidate,
            QueueAttributes queue, Map<QueueName, Resources> allocations) {
        Map<QueueName, Resources> checked = new LinkedHashMap<>();
        if (!checksAncestors()) {
            return Optional.of(checked);
        }
        for (int level = 1; level <= ancestorReclaimLevel; level++) {
            Optional<QueueName> ancestorName = ancestorAtDepth(queue.name(), level);
            if (ancestorName.isEmpty() || ancestorName.get().equals(Queue.ROOT)
                    || ancestorName.equals(ancestorAtDepth(reclaimerQueue.name(), level))) {
                continue;
            }
            Optional<QueueAttributes> ancestor = tree.get(ancestorName.get());
            if (ancestor.isEmpty()) {
                return Optional.empty();
            }
            Resources held = allocations.computeIfAbsent(ancestorName.get(), name -> ancestor.get().allocated());
            checked.put(ancestorName.get(), held);
            if (isImmediateVictim(candidate, ancestor.get().deserved())) {
                continue;
            }
            if (!Quota.exceedsOnRelevantDimensions(held, ancestor.get().deserved(), candidate.request())) {
                return Optional.empty();
            }
        }
        return Optional.of(checked);
    }

    private boolean checksAncestors() {
        return hierarchical && ancestorReclaimLevel > 0;
    }

    /** A victim that uses nothing its queue deserves can always be taken. */
    private static boolean isImmediateVictim(TaskState candidate, Resources deserved) {
        return !Quota.intersects(candidate.request(), deserved);
    }

    private boolean sharesNonRootAncestor(QueueAttributes left, QueueAttributes right) {
        Set<QueueName> leftAncestors = ancestorsWithinLevel(left.name());
        leftAncestors.remove(Queue.ROOT);
        leftAncestors.retainAll(ancestorsWithinLevel(right.name()));
        return !leftAncestors.isEmpty();
    }

    private Set<QueueName> ancestorsWithinLevel(QueueName queue) {
        return java.util.stream.IntStream.rangeClosed(1, ancestorReclaimLevel)
                .mapToObj(level -> ancestorAtDepth(queue, level))
                .flatMap(Optional::stream)
                .collect(Collectors.toSet());
    }

    /** The ancestor {@code depth} levels up: 1 is the parent. */
    Optional<QueueName> ancestorAtDepth(QueueName queue, int depth) {
        List<QueueName> ancestors = tree.ancestorNames(queue);
        if (depth <= 0 || ancestors.size() < depth) {
            return Optional.empty();
        }
        return Optional.of(ancestors.get(ancestors.size() - depth));
    }
}
