package dev.muster.sim;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import dev.muster.engine.plugins.dag.DagAnnotations;
import dev.muster.graph.CriticalPath;
import dev.muster.graph.NodeId;
import dev.muster.sim.workload.DurationEstimates;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.WorkloadJob;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * What a workflow controller would tell the {@code dag} plugin about each gang of a DAG job: the
 * PodGroup annotations {@code muster.dev/dag} (the workload job), {@code muster.dev/dag-node} (the
 * gang) and {@code muster.dev/dag-remaining-path} (the gang's remaining critical path from its
 * start, from {@link CriticalPath} over the estimated durations, in whole seconds rounded up, so
 * a path of a few hundred milliseconds still counts as one second).
 *
 * <p>Every job of a DAG workload gets them, a single-gang job too: the plugin only orders two jobs
 * when both carry a remaining path, and a mix of annotated and unannotated jobs would not be a
 * consistent order.
 *
 * @param estimates how run times are estimated
 * @param seed for the estimates' noise
 */
public record DagHints(DurationEstimates estimates, long seed) {
    public DagHints {
        requireNonNull(estimates, "estimates is null");
    }

    /** The annotations of every gang of the job, by gang name. */
    public ImmutableMap<String, ImmutableMap<String, String>> annotations(WorkloadJob job) {
        requireNonNull(job, "job is null");
        Map<NodeId, Duration> durations = new HashMap<>();
        for (GangSpec gang : job.gangs()) {
            durations.put(NodeId.of(gang.name()), estimates.estimate(job.id(), gang, seed));
        }
        CriticalPath path = CriticalPath.of(job.graph(), durations);
        ImmutableMap.Builder<String, ImmutableMap<String, String>> annotations = ImmutableMap.builder();
        for (GangSpec gang : job.gangs()) {
            long millis = path.remaining(NodeId.of(gang.name())).toMillis();
            annotations.put(gang.name(), ImmutableMap.of(
                    DagAnnotations.DAG, job.id(),
                    DagAnnotations.NODE, gang.name(),
                    DagAnnotations.REMAINING_PATH, Long.toString((millis + 999) / 1000)));
        }
        return annotations.buildOrThrow();
    }
}
