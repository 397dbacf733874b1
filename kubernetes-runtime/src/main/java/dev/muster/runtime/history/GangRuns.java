package dev.muster.runtime.history;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.FinishedJob;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Notices, snapshot by snapshot, the gangs that ran whole and then succeeded, and measures their run
 * from the cluster's own facts: a gang runs whole from the latest {@code status.startTime} of its pods
 * (the kubelet's, once at least {@code minMember} pods run or have succeeded), and finishes at the
 * first snapshot in which every one of its pods has succeeded.
 *
 * <p>Only a run seen in progress is recorded: a gang that is already finished in the first snapshot
 * this replica reads (it finished while no scheduler led, or before a restart, when it was recorded
 * already) is not, since when it finished is not known. So the run time is off by at most the time
 * between two snapshots. A run whose pod failed, or that went back to waiting, is forgotten.
 *
 * <p>Not thread-safe: the scheduling thread alone calls {@link #observe}.
 */
public final class GangRuns {
    /** A gang seen running whole: its PodGroup's uid, so a PodGroup recreated under the name starts anew, and since when. */
    private record Run(String uid, Instant start) {}

    private final Map<JobId, Run> running = new HashMap<>();

    /** The gangs of {@code cluster} that finished successfully since the last snapshot, each with its measured run. */
    public ImmutableList<FinishedJob> observe(ClusterSnapshot cluster, Instant now) {
        requireNonNull(cluster, "cluster is null");
        requireNonNull(now, "now is null");
        ImmutableList.Builder<FinishedJob> finished = ImmutableList.builder();
        running.keySet().retainAll(cluster.jobs().keySet());
        for (Job job : cluster.jobs().values()) {
            Run seen = running.get(job.id());
            if (seen != null && !seen.uid().equals(job.uid())) {
                running.remove(job.id());
                seen = null;
            }
            if (succeeded(job)) {
                if (seen != null) {
                    running.remove(job.id());
                    finished.add(finishedJob(job, seen.start(), now));
                }
                continue;
            }
            Optional<Instant> start = wholeSince(job);
            if (start.isEmpty()) {
                running.remove(job.id());
            } else if (seen == null) {
                running.put(job.id(), new Run(job.uid(), start.get()));
            }
        }
        return finished.build();
    }

    /** Every pod of the gang, at least {@code minMember} of them, has succeeded. */
    private static boolean succeeded(Job job) {
        return !job.tasks().isEmpty() && job.tasks().size() >= job.minMember()
                && job.tasks().stream().allMatch(task -> task.status() == TaskStatus.SUCCEEDED);
    }

    /**
     * When the whole gang ran, if it runs now: at least {@code minMember} pods (one, for a gang of zero)
     * run or have succeeded, none has failed, and each that runs or ran says when it started.
     */
    private static Optional<Instant> wholeSince(Job job) {
        int ran = 0;
        boolean runs = false;
        Instant start = Instant.MIN;
        for (Task task : job.tasks()) {
            if (task.status() == TaskStatus.FAILED) {
                return Optional.empty();
            }
            if (task.status() == TaskStatus.RUNNING || task.status() == TaskStatus.SUCCEEDED) {
                if (task.started().isEmpty()) {
                    return Optional.empty();
                }
                ran++;
                runs |= task.status() == TaskStatus.RUNNING;
                start = task.started().get().isAfter(start) ? task.started().get() : start;
            }
        }
        return runs && ran >= Math.max(1, job.minMember()) ? Optional.of(start) : Optional.empty();
    }

    private static FinishedJob finishedJob(Job job, Instant start, Instant now) {
        // a kubelet's clock ahead of ours must not make a negative run
        Duration run = start.isAfter(now) ? Duration.ZERO : Duration.between(start, now);
        return FinishedJob.of(job, HistoryCodec.kept(job.annotations()), now, run);
    }
}
