package dev.muster.sim.workload;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which part of a trace to replay and how fast: the first {@code maxJobs} jobs arriving at or
 * after {@code start}, with inter-arrival times multiplied by {@code timeScale} (below 1 raises the
 * load). Trace clocks that count seconds from the trace start read as seconds after
 * 1970-01-01T00:00:00, so {@code 1970-01-02T00:00} is second 86,400 of such a trace.
 *
 * @param maxJobs 0 for every job
 */
public record TraceSelection(Optional<LocalDateTime> start, int maxJobs, double timeScale) {
    public static final TraceSelection ALL = new TraceSelection(Optional.empty(), 0, 1.0);

    public TraceSelection {
        requireNonNull(start, "start is null");
        checkArgument(maxJobs >= 0, "maxJobs is negative: %s", maxJobs);
        checkArgument(timeScale > 0 && Double.isFinite(timeScale), "timeScale must be positive: %s", timeScale);
    }

    /** Trace time as milliseconds since 1970-01-01T00:00:00 (no time zone). */
    public static long traceMillis(LocalDateTime time) {
        return time.toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    /** The jobs picked, their arrivals rebased on the first one and scaled, with that first arrival. */
    public record Selected(Instant epoch, ImmutableList<WorkloadJob> jobs) {}

    /**
     * @param jobs sorted by arrival, arrivals in trace milliseconds
     */
    public Selected apply(List<WorkloadJob> jobs) {
        long from = start.map(TraceSelection::traceMillis).orElse(Long.MIN_VALUE);
        List<WorkloadJob> picked = new ArrayList<>();
        for (WorkloadJob job : jobs) {
            if (job.arrivalMillis() < from) {
                continue;
            }
            if (maxJobs > 0 && picked.size() == maxJobs) {
                break;
            }
            picked.add(job);
        }
        if (picked.isEmpty()) {
            return new Selected(Instant.ofEpochMilli(Math.max(from, 0)), ImmutableList.of());
        }
        long first = picked.get(0).arrivalMillis();
        ImmutableList.Builder<WorkloadJob> rebased = ImmutableList.builder();
        for (WorkloadJob job : picked) {
            rebased.add(job.withArrival(Math.round((job.arrivalMillis() - first) * timeScale)));
        }
        return new Selected(Instant.ofEpochMilli(first), rebased.build());
    }
}
