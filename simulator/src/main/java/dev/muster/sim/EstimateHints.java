package dev.muster.sim;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.plugins.shortestfirst.ShortestFirstPlugin;
import dev.muster.sim.workload.DurationEstimates;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.WorkloadJob;

/**
 * What a user or a history service would tell the scheduler about each gang's run time: the PodGroup
 * annotation {@code muster.dev/duration-estimate}, in whole seconds rounded up, from noisy estimates
 * of the trace's duration. Never the oracle: a real cluster does not know how long a job will run, and
 * a policy that saw the truth would be measured against a world that does not exist.
 *
 * @param estimates log-normal estimates ({@code lognormal:SIGMA})
 * @param seed for the estimates' noise; the same for every policy of a comparison
 */
public record EstimateHints(DurationEstimates estimates, long seed) {
    public EstimateHints {
        requireNonNull(estimates, "estimates is null");
        checkArgument(estimates.kind() == DurationEstimates.Kind.LOGNORMAL,
                "run-time estimates given to a policy must carry error (lognormal:SIGMA), not the trace's durations: %s", estimates);
    }

    /** The annotation of every gang of the job, by gang name. */
    public ImmutableMap<String, ImmutableMap<String, String>> annotations(WorkloadJob job) {
        requireNonNull(job, "job is null");
        ImmutableMap.Builder<String, ImmutableMap<String, String>> annotations = ImmutableMap.builder();
        for (GangSpec gang : job.gangs()) {
            long millis = estimates.estimate(job.id(), gang, seed).toMillis();
            annotations.put(gang.name(), ImmutableMap.of(ShortestFirstPlugin.DURATION_ESTIMATE, Long.toString((millis + 999) / 1000)));
        }
        return annotations.buildOrThrow();
    }
}
