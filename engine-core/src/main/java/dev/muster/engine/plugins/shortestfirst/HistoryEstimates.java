package dev.muster.engine.plugins.shortestfirst;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.JobState;
import dev.muster.engine.model.FinishedJob;
import dev.muster.engine.model.JobHistory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Expected run times learnt from the snapshot's {@link JobHistory}: per similarity key, the median run
 * time of the last {@code runs} finished jobs of that key. Built once per session; not thread-safe.
 */
final class HistoryEstimates {
    private final SimilarityKey key;
    private final Map<String, Double> medians = new HashMap<>();

    HistoryEstimates(JobHistory history, SimilarityKey key, int runs) {
        requireNonNull(history, "history is null");
        this.key = requireNonNull(key, "key is null");
        if (key.isNone() || history.isEmpty()) {
            return;
        }
        Map<String, Deque<Double>> recent = new HashMap<>();
        for (FinishedJob job : history.jobs()) {
            Optional<String> similar = key.of(job.id(), job.queue(), job.annotations(), job.requested());
            if (similar.isPresent()) {
                Deque<Double> seconds = recent.computeIfAbsent(similar.get(), ignored -> new ArrayDeque<>());
                seconds.addLast(job.run().toMillis() / 1000.0);
                if (seconds.size() > runs) {
                    seconds.removeFirst();
                }
            }
        }
        recent.forEach((similar, seconds) -> medians.put(similar, ShortestFirstPlugin.median(new ArrayList<>(seconds))));
    }

    /** The median run time of the job's key, in seconds; empty when no finished job shares its key. */
    Optional<Double> of(JobState job) {
        if (medians.isEmpty()) {
            return Optional.empty();
        }
        return key.of(job.id(), job.queue(), job.job().annotations(), ShortestFirstPlugin.requested(job)).map(medians::get);
    }
}
