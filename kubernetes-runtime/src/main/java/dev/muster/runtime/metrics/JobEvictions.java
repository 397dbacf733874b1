package dev.muster.runtime.metrics;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * How many times each live job has been evicted, over its life: once for each cycle in which preempt,
 * reclaim or any other action evicted one or more of its pods (a gang that loses three pods at once
 * loses one run). A job is forgotten once a cycle's snapshot no longer has it, or has a new job of the
 * same name (another uid), so what is kept is bounded by the live jobs.
 *
 * <p>Not thread-safe: {@link SchedulerMetrics} calls it under its lock.
 */
final class JobEvictions {
    private record Count(String uid, int times) {}

    private final Map<JobId, Count> counts = new HashMap<>();

    /**
     * Counts one cycle's accepted evictions, then forgets the jobs that are gone.
     *
     * @return the running totals of the jobs evicted in this cycle, one per job
     */
    ImmutableList<Integer> record(ClusterSnapshot cluster, ImmutableList<SessionResult.Eviction> evictions) {
        requireNonNull(cluster, "cluster is null");
        Set<JobId> evicted = new LinkedHashSet<>();
        evictions.forEach(eviction -> evicted.add(eviction.job()));
        ImmutableList.Builder<Integer> totals = ImmutableList.builder();
        for (JobId id : evicted) {
            Job job = cluster.jobs().get(id);
            String uid = job == null ? "" : job.uid();
            Count before = counts.get(id);
            int times = before != null && before.uid().equals(uid) ? before.times() + 1 : 1;
            counts.put(id, new Count(uid, times));
            totals.add(times);
        }
        counts.entrySet().removeIf(entry -> {
            Job job = cluster.jobs().get(entry.getKey());
            return job == null || !job.uid().equals(entry.getValue().uid());
        });
        return totals.build();
    }

    /** The most times any live job has been evicted; 0 when none has. */
    int max() {
        return counts.values().stream().mapToInt(Count::times).max().orElse(0);
    }

    /** How many jobs are remembered. */
    int size() {
        return counts.size();
    }
}
