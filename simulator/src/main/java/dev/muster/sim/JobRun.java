package dev.muster.sim;

import com.google.common.collect.ImmutableMap;
import dev.muster.graph.GraphRun;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.WorkloadJob;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One workload job in a run: its graph's progress, when it completed, and the PodGroup annotations
 * of its gangs (empty unless the run gives {@link DagHints}). Not thread-safe.
 */
final class JobRun {
    final WorkloadJob spec;
    final GraphRun graph;
    final Map<String, GangSpec> gangs = new HashMap<>();
    final ImmutableMap<String, ImmutableMap<String, String>> annotations;
    int unfinishedGangs;
    long completedAt = -1;
    long firstRunStart = -1;

    JobRun(WorkloadJob spec, Optional<DagHints> hints, Optional<EstimateHints> estimates) {
        this.spec = spec;
        this.annotations = merge(hints.map(dag -> dag.annotations(spec)).orElse(ImmutableMap.of()),
                estimates.map(estimate -> estimate.annotations(spec)).orElse(ImmutableMap.of()));
        this.graph = new GraphRun(spec.graph());
        for (GangSpec gang : spec.gangs()) {
            gangs.put(gang.name(), gang);
        }
        this.unfinishedGangs = spec.gangs().size();
    }

    private static ImmutableMap<String, ImmutableMap<String, String>> merge(ImmutableMap<String, ImmutableMap<String, String>> first,
            ImmutableMap<String, ImmutableMap<String, String>> second) {
        if (second.isEmpty()) {
            return first;
        }
        Map<String, ImmutableMap<String, String>> merged = new HashMap<>(first);
        second.forEach((gang, annotations) -> merged.merge(gang, annotations,
                (left, right) -> ImmutableMap.<String, String>builder().putAll(left).putAll(right).buildKeepingLast()));
        return ImmutableMap.copyOf(merged);
    }
}
