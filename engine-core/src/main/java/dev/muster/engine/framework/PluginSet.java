package dev.muster.engine.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Queue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The plugins of a session in their tiers, and the rules by which their answers combine at each
 * extension point (Volcano's {@code session_plugins.go}). Each method visits tiers and plugins in
 * configured order and skips plugins whose flag for that point is off. Not thread-safe.
 */
public final class PluginSet {
    private final ImmutableList<ImmutableList<PluginInstance>> tiers;
    // the hot extension points, resolved once: the allocate loop asks them for every task and node
    private final List<JobOrder> jobOrders;
    private final List<TaskOrder> taskOrders;
    private final List<QueueOrder> queueOrders;
    private final List<JobReadiness> readiness;
    private final List<NodeFilter> filters;
    private final List<NodeScorer> scorers;
    private final List<AllocationListener> listeners;
    // reused by score(task, nodes, totals), which the allocate loop calls for every task
    private double[] scratchScores = new double[0];

    public PluginSet(List<? extends List<PluginInstance>> tiers) {
        ImmutableList.Builder<ImmutableList<PluginInstance>> builder = ImmutableList.builder();
        for (List<PluginInstance> tier : tiers) {
            builder.add(ImmutableList.copyOf(tier));
        }
        this.tiers = builder.build();
        this.jobOrders = flat(JobOrder.class, PluginFlag.JOB_ORDER);
        this.taskOrders = flat(TaskOrder.class, PluginFlag.TASK_ORDER);
        this.queueOrders = flat(QueueOrder.class, PluginFlag.QUEUE_ORDER);
        this.readiness = flat(JobReadiness.class, PluginFlag.JOB_READY);
        this.filters = flat(NodeFilter.class, PluginFlag.PREDICATE);
        this.scorers = flat(NodeScorer.class, PluginFlag.NODE_ORDER);
        this.listeners = flat(AllocationListener.class, null);
    }

    public ImmutableList<ImmutableList<PluginInstance>> tiers() {
        return tiers;
    }

    private <T> List<List<T>> collect(Class<T> type, PluginFlag flag) {
        List<List<T>> result = new ArrayList<>();
        for (List<PluginInstance> tier : tiers) {
            List<T> found = new ArrayList<>();
            for (PluginInstance instance : tier) {
                if ((flag == null || instance.enabled(flag)) && type.isInstance(instance.plugin())) {
                    found.add(type.cast(instance.plugin()));
                }
            }
            result.add(found);
        }
        return result;
    }

    /** All plugins of a type in order, regardless of flags. */
    public <T> List<T> all(Class<T> type) {
        List<T> result = new ArrayList<>();
        for (List<T> tier : collect(type, null)) {
            result.addAll(tier);
        }
        return result;
    }

    private record CacheKey(Class<?> type, PluginFlag flag) {}

    private final Map<CacheKey, List<?>> flatCache = new HashMap<>();

    @SuppressWarnings("unchecked")
    private <T> List<T> flat(Class<T> type, PluginFlag flag) {
        CacheKey key = new CacheKey(type, flag);
        List<?> cached = flatCache.get(key);
        if (cached != null) {
            return (List<T>) cached;
        }
        return (List<T>) flatCache.computeIfAbsent(key, ignored -> {
            List<T> result = new ArrayList<>();
            for (List<T> tier : collect(type, flag)) {
                result.addAll(tier);
            }
            return List.copyOf(result);
        });
    }

    public int compareJobs(JobState left, JobState right) {
        for (JobOrder order : jobOrders) {
            int result = order.compareJobs(left, right);
            if (result != 0) {
                return result;
            }
        }
        return 0;
    }

    public int compareQueues(Queue left, Queue right) {
        for (QueueOrder order : queueOrders) {
            int result = order.compareQueues(left, right);
            if (result != 0) {
                return result;
            }
        }
        return 0;
    }

    /** Victim-queue order has no flag; 0 means no plugin had an opinion. */
    public int compareVictimQueues(Queue left, Queue right, Queue preemptor) {
        for (VictimQueueOrder order : flat(VictimQueueOrder.class, null)) {
            int result = order.compareVictimQueues(left, right, preemptor);
            if (result != 0) {
                return result;
            }
        }
        return 0;
    }

    public int compareTasks(TaskState left, TaskState right) {
        for (TaskOrder order : taskOrders) {
            int result = order.compareTasks(left, right);
            if (result != 0) {
                return result;
            }
        }
        return 0;
    }

    public boolean isJobReady(JobState job) {
        for (JobReadiness check : readiness) {
            if (!check.isReady(job)) {
                return false;
            }
        }
        return true;
    }

    public boolean isJobPipelined(JobState job) {
        return vote(collect(JobPipelining.class, PluginFlag.JOB_PIPELINED), plugin -> plugin.isPipelined(job));
    }

    public boolean isJobEnqueueable(JobState job) {
        return vote(collect(AdmissionCheck.class, PluginFlag.JOB_ENQUEUED), plugin -> plugin.isEnqueueable(job));
    }

    public void jobEnqueued(JobState job) {
        for (AdmissionCheck check : flat(AdmissionCheck.class, PluginFlag.JOB_ENQUEUED)) {
            check.enqueued(job);
        }
    }

    private static <T> boolean vote(List<List<T>> tiers, Function<T, Vote> ask) {
        for (List<T> tier : tiers) {
            boolean permitted = false;
            for (T plugin : tier) {
                Vote vote = ask.apply(plugin);
                if (vote == Vote.REJECT) {
                    return false;
                }
                if (vote == Vote.PERMIT) {
                    permitted = true;
                }
            }
            if (permitted) {
                return true;
            }
        }
        return true;
    }

    public boolean isJobStarving(JobState job) {
        for (List<JobStarvation> tier : collect(JobStarvation.class, PluginFlag.JOB_STARVING)) {
            if (tier.isEmpty()) {
                continue;
            }
            for (JobStarvation plugin : tier) {
                if (!plugin.isStarving(job)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** The first reason a job is invalid; validity has no flag. */
    public Optional<String> jobInvalidReason(JobState job) {
        for (JobValidity validity : flat(JobValidity.class, null)) {
            Optional<String> reason = validity.invalidReason(job);
            if (reason.isPresent()) {
                return reason;
            }
        }
        return Optional.empty();
    }

    public Optional<String> prefilter(TaskState task) {
        for (NodeFilter filter : filters) {
            Optional<String> failure = filter.prefilter(task);
            if (failure.isPresent()) {
                return failure;
            }
        }
        return Optional.empty();
    }

    public Optional<FitFailure> filter(TaskState task, NodeState node) {
        for (NodeFilter filter : filters) {
            Optional<FitFailure> failure = filter.filter(task, node);
            if (failure.isPresent()) {
                return failure;
            }
        }
        return Optional.empty();
    }

    /**
     * The task's key for remembering filter verdicts: every enabled filter's {@link NodeFilter#filterKey
     * key} in order, or empty when one of them has none.
     */
    public Optional<List<Object>> filterKey(TaskState task) {
        List<Object> keys = new ArrayList<>(filters.size());
        for (NodeFilter filter : filters) {
            Optional<Object> key = filter.filterKey(task);
            if (key.isEmpty()) {
                return Optional.empty();
            }
            keys.add(key.get());
        }
        return Optional.of(keys);
    }

    public boolean hasNodeScorers() {
        return !scorers.isEmpty();
    }

    /** The summed score of every enabled scorer, per node. */
    public Map<NodeName, Double> score(TaskState task, List<NodeState> nodes) {
        Map<NodeName, Double> total = new HashMap<>();
        for (NodeScorer scorer : scorers) {
            scorer.score(task, nodes).forEach((node, score) -> total.merge(node, score, Double::sum));
        }
        return total;
    }

    /**
     * The summed score of every enabled scorer for {@code nodes.get(i)} in {@code totals[i]}, added in
     * scorer order as {@link #score(TaskState, List)} adds them, so the sums are the same to the bit.
     */
    public void score(TaskState task, List<NodeState> nodes, double[] totals) {
        int size = nodes.size();
        Arrays.fill(totals, 0, size, 0.0);
        if (scratchScores.length < size) {
            scratchScores = new double[size];
        }
        double[] scores = scratchScores;
        for (NodeScorer scorer : scorers) {
            scorer.score(task, nodes, scores);
            for (int i = 0; i < size; i++) {
                totals[i] += scores[i];
            }
        }
    }

    public List<TaskState> preemptable(TaskState preemptor, List<TaskState> candidates) {
        return selectVictims(PluginFlag.PREEMPTABLE, selector -> selector.preemptable(preemptor, candidates));
    }

    public List<TaskState> reclaimable(TaskState reclaimer, List<TaskState> candidates) {
        return selectVictims(PluginFlag.RECLAIMABLE, selector -> selector.reclaimable(reclaimer, candidates));
    }

    /**
     * Volcano's rule: within a tier the non-abstaining answers are intersected, an empty answer empties
     * the result, and the first tier that ends with victims decides.
     */
    private List<TaskState> selectVictims(PluginFlag flag, Function<VictimSelector, Optional<List<TaskState>>> ask) {
        List<TaskState> victims = null;
        boolean initialised = false;
        for (List<VictimSelector> tier : collect(VictimSelector.class, flag)) {
            for (VictimSelector selector : tier) {
                Optional<List<TaskState>> answer = ask.apply(selector);
                if (answer.isEmpty()) {
                    continue;
                }
                if (answer.get().isEmpty()) {
                    victims = null;
                    break;
                }
                if (!initialised) {
                    victims = new ArrayList<>(answer.get());
                    initialised = true;
                } else {
                    Set<TaskState> allowed = new LinkedHashSet<>(answer.get());
                    List<TaskState> intersection = new ArrayList<>();
                    if (victims != null) {
                        for (TaskState victim : victims) {
                            if (allowed.contains(victim)) {
                                intersection.add(victim);
                            }
                        }
                    }
                    victims = intersection.isEmpty() ? null : intersection;
                }
            }
            if (victims != null) {
                return victims;
            }
        }
        return victims == null ? List.of() : victims;
    }

    public boolean isOverused(Queue queue) {
        for (QueueCapacity capacity : flat(QueueCapacity.class, PluginFlag.OVERUSED)) {
            if (capacity.isOverused(queue)) {
                return true;
            }
        }
        return false;
    }

    public boolean isAllocatable(Queue queue, TaskState task) {
        for (QueueCapacity capacity : flat(QueueCapacity.class, PluginFlag.ALLOCATABLE)) {
            if (!capacity.isAllocatable(queue, task)) {
                return false;
            }
        }
        return true;
    }

    public boolean isPreemptive(Queue queue, List<TaskState> tasks) {
        for (QueueCapacity capacity : flat(QueueCapacity.class, PluginFlag.PREEMPTIVE)) {
            if (!capacity.isPreemptive(queue, tasks)) {
                return false;
            }
        }
        return true;
    }

    public void allocated(TaskState task) {
        for (AllocationListener listener : listeners) {
            listener.allocated(task);
        }
    }

    public void deallocated(TaskState task) {
        for (AllocationListener listener : listeners) {
            listener.deallocated(task);
        }
    }

    public void sessionClosed(Session session) {
        requireNonNull(session, "session is null");
        for (SessionCloseListener listener : flat(SessionCloseListener.class, null)) {
            listener.sessionClosed(session);
        }
    }
}
