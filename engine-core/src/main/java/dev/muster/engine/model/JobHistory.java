package dev.muster.engine.model;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * The jobs that finished most recently, oldest first, at most as many as whoever keeps the history
 * allows: part of a {@link ClusterSnapshot}, so the same snapshot gives the same decisions. Empty on
 * a cluster that keeps none.
 *
 * @param jobs the finished jobs, in the order they finished (oldest first)
 */
public record JobHistory(ImmutableList<FinishedJob> jobs) {
    public static final JobHistory EMPTY = new JobHistory(ImmutableList.of());

    public JobHistory {
        jobs = ImmutableList.copyOf(jobs);
    }

    /** This history with {@code job} added as the newest, keeping at most the newest {@code limit} jobs. */
    public JobHistory with(FinishedJob job, int limit) {
        requireNonNull(job, "job is null");
        checkArgument(limit > 0, "limit must be positive: %s", limit);
        int keep = Math.min(jobs.size(), limit - 1);
        return new JobHistory(ImmutableList.<FinishedJob>builderWithExpectedSize(keep + 1)
                .addAll(jobs.subList(jobs.size() - keep, jobs.size()))
                .add(job)
                .build());
    }

    public boolean isEmpty() {
        return jobs.isEmpty();
    }
}
