package dev.muster.sim.metrics;

import com.google.common.collect.ImmutableMap;
import dev.muster.graph.Dependency;
import dev.muster.graph.NodeId;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.WorkloadJob;
import java.util.HashMap;
import java.util.Map;

/**
 * When each gang of a job would run if nothing ever waited for room: from its job's arrival, or from
 * the end of its latest ancestor, for its duration. What a cluster without contention would give; no
 * policy does better.
 */
final class EarliestRuns {
    /** A gang's run in milliseconds of the workload's clock, {@code [start, end)}. */
    record Run(GangSpec gang, long start, long end) {}

    private EarliestRuns() {}

    /** Each gang's earliest run, in the job graph's topological order. */
    static ImmutableMap<NodeId, Run> of(WorkloadJob job) {
        Map<String, GangSpec> gangs = new HashMap<>();
        job.gangs().forEach(gang -> gangs.put(gang.name(), gang));
        ImmutableMap.Builder<NodeId, Run> runs = ImmutableMap.builder();
        Map<NodeId, Long> ends = new HashMap<>();
        for (NodeId node : job.graph().topologicalOrder().order()) {
            long start = job.arrivalMillis();
            for (Dependency parent : job.graph().parents(node)) {
                start = Math.max(start, ends.get(parent.parent()));
            }
            GangSpec gang = gangs.get(node.value());
            long end = start + gang.durationMillis();
            ends.put(node, end);
            runs.put(node, new Run(gang, start, end));
        }
        return runs.buildOrThrow();
    }

    /** The job's completion time if nothing waited: its critical path, from its arrival. */
    static long jctMillis(WorkloadJob job) {
        return of(job).values().stream().mapToLong(Run::end).max().orElse(job.arrivalMillis()) - job.arrivalMillis();
    }
}
