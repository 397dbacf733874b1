package dev.muster.sim;

import dev.muster.graph.GraphRun;
import dev.muster.sim.workload.GangSpec;
import dev.muster.sim.workload.WorkloadJob;
import java.util.HashMap;
import java.util.Map;

/** One workload job in a run: its graph's progress and when it completed. Not thread-safe. */
final class JobRun {
    final WorkloadJob spec;
    final GraphRun graph;
    final Map<String, GangSpec> gangs = new HashMap<>();
    int unfinishedGangs;
    long completedAt = -1;
    long firstRunStart = -1;

    JobRun(WorkloadJob spec) {
        this.spec = spec;
        this.graph = new GraphRun(spec.graph());
        for (GangSpec gang : spec.gangs()) {
            gangs.put(gang.name(), gang);
        }
        this.unfinishedGangs = spec.gangs().size();
    }
}
