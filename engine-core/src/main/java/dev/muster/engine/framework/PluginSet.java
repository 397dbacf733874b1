package dev.muster.engine.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Queue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    private final List<SubJobReadiness> subJobReadiness;
    private final List<SubJobOrder> subJobOrders;
    private final List<HyperNodeScorer> hyperNodeScorers;
    private final List<HyperNodeGradients> gradients;
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
        this.subJobReadiness = flat(SubJobReadiness.class, PluginFlag.SUB_JOB_READY);
        this.subJobOrders = flat(SubJobOrder.class, PluginFlag.SUB_JOB_ORDER);
        this.hyperNodeScorers = flat(HyperNodeScorer.class, PluginFlag.HYPER_NODE_ORDER);
        this.gradients = flat(HyperNodeGradients.class, PluginFlag.HYPER_NODE_GRADIENT);
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

    /** Victim-task order has no flag; 0 means no plugin had an opinion. */
    public int compareVictimTasks(TaskState left, TaskState right, TaskState preemptor) {
        for (VictimTaskOrder order : flat(VictimTaskOrder.class, null)) {
            int result = order.compareVictimTasks(left, right, preemptor);
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
        return TierRules.vote(collect(JobPipelining.class, PluginFlag.JOB_PIPELINED), plugin -> plugin.isPipelined(job));
    }

    /** A subgroup's readiness; for a job without subgroup policies, the job's. */
    public boolean isSubJobReady(SubJobState subJob) {
        if (!subJob.job().hasSubGroupPolicy()) {
            return isJobReady(subJob.job());
        }
        for (SubJobReadiness check : subJobReadiness) {
            if (!check.isSubJobReady(subJob)) {
                return false;
            }
        }
        return true;
    }

    /** A subgroup's pipelining vote; for a job without subgroup policies, the job's. */
    public boolean isSubJobPipelined(SubJobState subJob) {
        if (!subJob.job().hasSubGroupPolicy()) {
            return isJobPipelined(subJob.job());
        }
        return TierRules.vote(collect(SubJobPipelining.class, PluginFlag.SUB_JOB_PIPELINED), plugin -> plugin.isSubJobPipelined(subJob));
    }

    public int compareSubJobs(SubJobState left, SubJobState right) {
        for (SubJobOrder order : subJobOrders) {
            int result = order.compareSubJobs(left, right);
            if (result != 0) {
                return result;
            }
        }
        return 0;
    }

    /** The summed score of every enabled hypernode scorer, per candidate hypernode. */
    public Map<String, Double> scoreHyperNodes(SubJobState subJob, List<String> hyperNodes) {
        Map<String, Double> total = new HashMap<>();
        for (HyperNodeScorer scorer : hyperNodeScorers) {
            scorer.scoreHyperNodes(subJob, hyperNodes).forEach((hyperNode, score) -> total.merge(hyperNode, score, Double::sum));
        }
        return total;
    }

    /** The first enabled plugin's gradients for a job; without one, just the given hypernode. */
    public List<List<String>> hyperNodeGradients(JobState job, String within) {
        return gradients.isEmpty() ? List.of(List.of(within)) : gradients.get(0).gradientsForJob(job, within);
    }

    /** The first enabled plugin's gradients for a subgroup; without one, just the given hypernode. */
    public List<List<String>> hyperNodeGradients(SubJobState subJob, String within) {
        return gradients.isEmpty() ? List.of(List.of(within)) : gradients.get(0).gradientsForSubJob(subJob, within);
    }

    public boolean isJobEnqueueable(JobState job) {
        return TierRules.vote(collect(AdmissionCheck.class, PluginFlag.JOB_ENQUEUED), plugin -> plugin.isEnqueueable(job));
    }

    public void jobEnqueued(JobState job) {
        for (AdmissionCheck check : flat(AdmissionCheck.class, PluginFlag.JOB_ENQUEUED)) {
            check.enqueued(job);
        }
    }

    public boolean isJobStarving(JobState job) {
        return TierRules.firstTierAgrees(collect(JobStarvation.class, PluginFlag.JOB_STARVING), plugin -> plugin.isStarving(job));
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
        if (scorers.isEmpty()) {
            Arrays.fill(totals, 0, size, 0.0);
            return;
        }
        // the first scorer writes the totals itself, as the first merge of the map path puts its score
        scorers.get(0).score(task, nodes, totals);
        if (scratchScores.length < size) {
            scratchScores = new double[size];
        }
        double[] scores = scratchScores;
        for (int scorer = 1; scorer < scorers.size(); scorer++) {
            scorers.get(scorer).score(task, nodes, scores);
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

    private List<TaskState> selectVictims(PluginFlag flag, Function<VictimSelector, Optional<List<TaskState>>> ask) {
        return TierRules.victims(collect(VictimSelector.class, flag), ask);
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

    /** Why the plugins refuse a task or a job, asked only after a refusal. */
    public Refusals refusals() {
        return new Refusals(flat(QueueCapacity.class, PluginFlag.ALLOCATABLE), flat(AdmissionCheck.class, PluginFlag.JOB_ENQUEUED));
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
