package dev.muster.engine.plugins.tasktopology;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.HashMultimap;
import com.google.common.collect.HashMultiset;
import com.google.common.collect.Multiset;
import com.google.common.collect.SetMultimap;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One job's buckets for a session: its tasks grouped by the topology's rules (Volcano's
 * {@code JobManager}). Tasks already on a node seed one bucket per node; each pending task, strongest
 * rule first, joins the bucket whose roles it likes most (affinities minus anti-affinities, ties to
 * the bucket asking for least), or a new bucket when every bucket repels it. Placements of the
 * session move a task from its bucket's pending tasks to the node it went to.
 */
final class JobBuckets {
    // Volcano's priority of a role's strongest rule; a larger one is placed first within a bucket
    private static final int SELF_ANTI_AFFINITY = 4;
    private static final int INTER_AFFINITY = 3;
    private static final int SELF_AFFINITY = 2;
    private static final int INTER_ANTI_AFFINITY = 1;
    private static final double MEBIBYTE = 1024 * 1024;

    private final Map<String, Integer> rulePriority = new HashMap<>();
    private final Map<String, Integer> order = new HashMap<>();
    private final SetMultimap<String, String> together = HashMultimap.create();
    private final SetMultimap<String, String> apart = HashMultimap.create();
    private final Set<String> selfTogether = new HashSet<>();
    private final Set<String> selfApart = new HashSet<>();
    private final List<Bucket> buckets = new ArrayList<>();
    private final Map<TaskId, Bucket> bucketOf = new HashMap<>();
    private final Map<NodeName, Multiset<String>> rolesOnNode = new HashMap<>();
    private final Set<TaskId> placed = new HashSet<>();
    private int maxBucketSize;

    JobBuckets(TaskTopology topology, Collection<TaskState> tasks) {
        requireNonNull(topology, "topology is null");
        requireNonNull(tasks, "tasks is null");
        rules(topology.affinity(), together, selfTogether, INTER_AFFINITY, SELF_AFFINITY);
        rules(topology.antiAffinity(), apart, selfApart, INTER_ANTI_AFFINITY, SELF_ANTI_AFFINITY);
        for (int i = 0; i < topology.taskOrder().size(); i++) {
            order.put(topology.taskOrder().get(i), topology.taskOrder().size() - i);
        }
        List<TaskState> onNodes = new ArrayList<>();
        List<TaskState> pending = new ArrayList<>();
        for (TaskState task : tasks) {
            if (task.node().isPresent() && !task.status().isTerminated()) {
                onNodes.add(task);
                rolesOnNode.computeIfAbsent(task.node().get(), node -> HashMultiset.create()).add(task.task().role());
                placed.add(task.id());
            } else if (task.node().isEmpty() && rulePriority.containsKey(task.task().role())) {
                pending.add(task);
            }
        }
        Map<NodeName, Bucket> bucketOfNode = new HashMap<>();
        onNodes.stream()
                .filter(task -> rulePriority.containsKey(task.task().role()))
                .sorted(Comparator.comparing((TaskState task) -> task.node().get()).thenComparing(TaskState::id))
                .forEach(task -> add(bucketOfNode.computeIfAbsent(task.node().get(), node -> newBucket()), task));
        pending.sort(Comparator.<TaskState>comparingInt(task -> -order.getOrDefault(task.task().role(), 0))
                .thenComparingInt(task -> -rulePriority.get(task.task().role()))
                .thenComparing(task -> task.id().name()));
        for (TaskState task : pending) {
            Bucket best = null;
            int bestLiking = Integer.MIN_VALUE;
            for (Bucket bucket : buckets) {
                int liking = liking(task.task().role(), bucket.roles, false);
                if (liking > bestLiking || liking == bestLiking && bucket.requestScore < best.requestScore) {
                    bestLiking = liking;
                    best = bucket;
                }
            }
            add(best == null || bestLiking < 0 ? newBucket() : best, task);
        }
    }

    private void rules(List<? extends List<String>> groups, SetMultimap<String, String> between, Set<String> self,
            int betweenPriority, int selfPriority) {
        for (List<String> group : groups) {
            if (group.size() == 1) {
                self.add(group.get(0));
                rulePriority.merge(group.get(0), selfPriority, Math::max);
                continue;
            }
            for (String role : group) {
                group.stream().filter(other -> !other.equals(role)).forEach(other -> between.put(role, other));
                rulePriority.merge(role, betweenPriority, Math::max);
            }
        }
    }

    private Bucket newBucket() {
        Bucket bucket = new Bucket(buckets.size());
        buckets.add(bucket);
        return bucket;
    }

    private void add(Bucket bucket, TaskState task) {
        bucketOf.put(task.id(), bucket);
        bucket.roles.add(task.task().role());
        if (task.node().isPresent()) {
            bucket.onNode(task.node().get(), 1);
        } else {
            bucket.pending.put(task.id(), task);
            bucket.request(task.request(), 1);
        }
        maxBucketSize = Math.max(maxBucketSize, bucket.pending.size() + bucket.placedCount);
    }

    /** Volcano's {@code checkTaskSetAffinity}: how much a role likes a set of roles (only its dislikes when asked). */
    private int liking(String role, Multiset<String> roles, boolean onlyDislikes) {
        int liking = 0;
        for (Multiset.Entry<String> entry : roles.entrySet()) {
            boolean same = entry.getElement().equals(role);
            if (!onlyDislikes && (same ? selfTogether.contains(role) : together.containsEntry(role, entry.getElement()))) {
                liking += entry.getCount();
            }
            if (same ? selfApart.contains(role) : apart.containsEntry(role, entry.getElement())) {
                liking -= entry.getCount();
            }
        }
        return liking;
    }

    int maxBucketSize() {
        return maxBucketSize;
    }

    /** The bucket the task is in, with its index and how many pending tasks it has; empty when out of any. */
    Optional<BucketView> bucketOf(TaskState task) {
        Bucket bucket = bucketOf.get(task.id());
        return bucket == null ? Optional.empty() : Optional.of(new BucketView(bucket.index, bucket.pending.size()));
    }

    /** Of two tasks in one bucket, negative when the left one goes first: by the task order, then by rule strength. */
    int compareWithinBucket(TaskState left, TaskState right) {
        String leftRole = left.task().role();
        String rightRole = right.task().role();
        if (leftRole.equals(rightRole)) {
            return 0;
        }
        int byOrder = Integer.compare(order.getOrDefault(rightRole, 0), order.getOrDefault(leftRole, 0));
        if (byOrder != 0) {
            return byOrder;
        }
        return Integer.compare(rulePriority.getOrDefault(rightRole, 0), rulePriority.getOrDefault(leftRole, 0));
    }

    /**
     * Volcano's bucket score of a node for a task, before weighting: 0 when the task cannot fit the
     * node's idle and releasing resources or is in no bucket; else the bucket's tasks already on the
     * node, minus the tasks there its role must be apart from, plus the bucket's pending tasks, minus
     * one for each of those (in the order they joined) that must be left out for the rest to fit.
     */
    int score(TaskState task, NodeState node) {
        Resources room = node.idle().add(node.releasing());
        if (room.lessPartly(task.request())) {
            return 0;
        }
        Bucket bucket = bucketOf.get(task.id());
        if (bucket == null) {
            return 0;
        }
        int score = bucket.nodes.getOrDefault(node.name(), 0);
        Multiset<String> there = rolesOnNode.get(node.name());
        if (there != null) {
            score += Math.min(0, liking(task.task().role(), there, true));
        }
        score += bucket.pending.size();
        if (bucket.request.lessEqual(room, Resources.Missing.ZERO)) {
            return score;
        }
        Resources remains = bucket.request;
        for (TaskState other : bucket.pending.values()) {
            if (other.id().equals(task.id()) || other.bestEffort()) {
                continue;
            }
            remains = remains.subtract(other.request());
            score--;
            if (remains.lessEqual(room, Resources.Missing.ZERO)) {
                break;
            }
        }
        return score;
    }

    /** The task now holds a node: allocated or pipelined this session, or its eviction undone. */
    void placed(TaskState task) {
        NodeName node = task.node().orElseThrow();
        if (!placed.add(task.id())) {
            return;
        }
        rolesOnNode.computeIfAbsent(node, name -> HashMultiset.create()).add(task.task().role());
        Bucket bucket = bucketOf.get(task.id());
        if (bucket != null && bucket.pending.remove(task.id()) != null) {
            bucket.request(task.request(), -1);
        }
        if (bucket != null) {
            bucket.onNode(node, 1);
        }
    }

    /** The task gave its node back: its placement undone (it is pending again), or it is being evicted. */
    void unplaced(TaskState task, boolean pendingAgain) {
        Optional<NodeName> node = task.node();
        if (node.isEmpty() || !placed.remove(task.id())) {
            return;
        }
        Multiset<String> there = rolesOnNode.get(node.get());
        if (there != null) {
            there.remove(task.task().role());
        }
        Bucket bucket = bucketOf.get(task.id());
        if (bucket != null) {
            bucket.onNode(node.get(), -1);
            if (pendingAgain) {
                bucket.pending.put(task.id(), task);
                bucket.request(task.request(), 1);
            }
        }
    }

    /** A bucket as the task order sees it. */
    record BucketView(int index, int pendingTasks) {}

    private static final class Bucket {
        final int index;
        // the bucket's tasks without a node, in the order they joined
        final Map<TaskId, TaskState> pending = new LinkedHashMap<>();
        final Multiset<String> roles = HashMultiset.create();
        final Map<NodeName, Integer> nodes = new HashMap<>();
        Resources request = Resources.EMPTY;
        // Volcano's reqScore: 1 millicore, 1 MiB and one thousandth of a device count alike
        double requestScore;
        int placedCount;

        Bucket(int index) {
            this.index = index;
        }

        void onNode(NodeName node, int change) {
            nodes.merge(node, change, Integer::sum);
            placedCount += change;
        }

        void request(Resources request, int sign) {
            this.request = sign > 0 ? this.request.add(request) : this.request.subtract(request);
            double score = 0;
            for (String name : request.names()) {
                double value = request.get(name);
                score += name.equals(Resources.MEMORY) || name.equals("ephemeral-storage") ? value / MEBIBYTE : value;
            }
            requestScore += sign * score;
        }
    }
}
