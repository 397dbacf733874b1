package dev.muster.jobs.controller;

import com.google.common.collect.ImmutableSortedMap;
import dev.muster.jobs.JobStatus;
import dev.muster.jobs.PodCounts;
import dev.muster.jobs.PodPhase;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/** Counts a job's pods by phase and by task as the controller goes through them. Not thread-safe. */
final class PodCensus {
    private final Map<PodPhase, Integer> phases = new EnumMap<>(PodPhase.class);
    private final Map<String, Map<PodPhase, Integer>> tasks = new TreeMap<>();
    private int terminating;

    void count(String task, PodPhase phase) {
        phases.merge(phase, 1, Integer::sum);
        tasks.computeIfAbsent(task, name -> new EnumMap<>(PodPhase.class)).merge(phase, 1, Integer::sum);
    }

    void terminating() {
        terminating++;
    }

    JobStatus applyTo(JobStatus status) {
        PodCounts counts = new PodCounts(get(PodPhase.PENDING), get(PodPhase.RUNNING), get(PodPhase.SUCCEEDED), get(PodPhase.FAILED),
                terminating, get(PodPhase.UNKNOWN));
        ImmutableSortedMap.Builder<String, ImmutableSortedMap<PodPhase, Integer>> byTask = ImmutableSortedMap.naturalOrder();
        tasks.forEach((task, counted) -> byTask.put(task, ImmutableSortedMap.copyOf(counted)));
        return status.withCounts(counts, byTask.buildOrThrow());
    }

    private int get(PodPhase phase) {
        return phases.getOrDefault(phase, 0);
    }
}
