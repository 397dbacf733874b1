package dev.muster.cli;

import dev.muster.engine.model.Resources;
import dev.muster.sim.Comparison;
import dev.muster.sim.metrics.Summary;
import java.util.Locale;

/**
 * The comparison as a text table, one row per policy. Evictions are the runs that preempt or reclaim
 * interrupted, in all and per job (p99 and max over every job), the columns that show a policy cycling.
 */
final class SimulateTable {
    private SimulateTable() {}

    static String render(Comparison comparison) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT,
                "%s: %d jobs on %d nodes, offered load %.2f (%.2f within the arrival window), average JCT without waiting %.0f s%n",
                comparison.workload().source(), comparison.workload().jobs().size(), comparison.cluster().nodeCount(), comparison.offeredLoad(),
                comparison.offeredLoadWithinWindow(), comparison.jctFloorSeconds()));
        // a cpu-only workload has no GPU to allocate: its allocation column is the cpu's
        boolean gpu = comparison.runs().stream().anyMatch(run -> run.measured().equals(Resources.GPU));
        out.append(String.format(Locale.ROOT, "%-16s %9s %10s %10s %10s %10s %10s %10s %7s %6s %12s %6s %9s %11s %11s%n", "policy",
                "completed", "avg JCT s", "p50 JCT s", "p95 JCT s", "p99 JCT s", "makespan s", "queue s", gpu ? "GPU %" : "cpu %", "stuck",
                "wasted GPU·s", "Jain", "evictions", "p99 evict/j", "max evict/j"));
        for (int i = 0; i < comparison.runs().size(); i++) {
            Summary s = comparison.summaries().get(i);
            out.append(String.format(Locale.ROOT, "%-16s %4d/%-4d %10.0f %10.0f %10.0f %10.0f %10.0f %10.0f %7.1f %6d %12.0f %6.3f %9d %11d %11d%n",
                    comparison.runs().get(i).policy(), s.completed(), s.jobs(), s.avgJctSeconds(), s.p50JctSeconds(), s.p95JctSeconds(),
                    s.p99JctSeconds(), s.makespanSeconds(), s.avgQueueingSeconds(), 100 * (gpu ? s.gpuAllocation() : s.cpuAllocation()), s.stuckJobs(), s.wastedGpuSeconds(),
                    s.jainFairness(), s.evictions(), s.p99EvictionsPerJob(), s.maxEvictionsPerJob()));
        }
        return out.toString();
    }
}
