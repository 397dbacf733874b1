package dev.muster.sim.workload;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import dev.muster.engine.model.QueueName;
import java.time.Instant;

/**
 * The jobs to replay, sorted by arrival, with the queues they use and their weights.
 *
 * @param epoch the trace time of arrival 0, which becomes the simulated clock's epoch
 * @param queueWeights every queue a job names, with its weight (1 or more)
 * @param problems the rows that were skipped
 * @param skippedJobs jobs left out for a reason other than a bad row (e.g. unfinished in the trace)
 */
public record Workload(
        String source,
        Instant epoch,
        ImmutableList<WorkloadJob> jobs,
        ImmutableSortedMap<QueueName, Integer> queueWeights,
        ImmutableList<LoadProblem> problems,
        int skippedJobs) {
    public Workload {
        requireNonNull(source, "source is null");
        requireNonNull(epoch, "epoch is null");
        jobs = ImmutableList.copyOf(jobs);
        queueWeights = ImmutableSortedMap.copyOf(queueWeights);
        problems = ImmutableList.copyOf(problems);
        for (WorkloadJob job : jobs) {
            if (!queueWeights.containsKey(job.queue())) {
                throw new IllegalArgumentException("job " + job.id() + " names queue " + job.queue() + " without a weight");
            }
        }
    }
}
