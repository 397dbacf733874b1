package dev.muster.engine.model;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import java.time.Duration;
import java.time.Instant;

/**
 * A job that has finished, as the cluster saw it: what a plugin may compare a pending job with to guess
 * how long that one will run. Only what was known about the job while it ran, and its run time
 * measured once it ended; never a duration taken from anywhere else.
 *
 * @param annotations the PodGroup's annotations
 * @param requested what the whole gang requested (the sum of its pods' requests)
 * @param finished when it finished
 * @param run how long its last, successful run took: from when the whole gang ran to when it finished
 */
public record FinishedJob(JobId id, QueueName queue, ImmutableMap<String, String> annotations, Resources requested, Instant finished,
        Duration run) {
    public FinishedJob {
        requireNonNull(id, "id is null");
        requireNonNull(queue, "queue is null");
        annotations = ImmutableMap.copyOf(annotations);
        requireNonNull(requested, "requested is null");
        requireNonNull(finished, "finished is null");
        requireNonNull(run, "run is null");
        checkArgument(!run.isNegative(), "job %s: run time is negative: %s", id, run);
    }

    /** The job, with the annotations kept of its PodGroup's, and what its pods requested together. */
    public static FinishedJob of(Job job, ImmutableMap<String, String> annotations, Instant finished, Duration run) {
        Resources requested = Resources.EMPTY;
        for (Task task : job.tasks()) {
            requested = requested.add(task.request());
        }
        return new FinishedJob(job.id(), job.queue(), annotations, requested, finished, run);
    }
}
