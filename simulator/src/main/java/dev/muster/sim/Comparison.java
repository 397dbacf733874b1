package dev.muster.sim;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.sim.cluster.ClusterSpec;
import dev.muster.sim.metrics.JctFloor;
import dev.muster.sim.metrics.OfferedLoad;
import dev.muster.sim.metrics.RunResult;
import dev.muster.sim.metrics.Summary;
import dev.muster.sim.policy.PolicySpec;
import dev.muster.sim.workload.Workload;
import java.util.function.Function;

/**
 * The same workload on the same cluster under each policy in turn, each with a fresh policy
 * instance seeded alike, so the same inputs and seed give the same numbers.
 *
 * @param offeredLoadWithinWindow the part of the offered load inside the arrival window (see {@link OfferedLoad#withinWindow})
 * @param jctFloorSeconds the average JCT if no job waited, below every policy's (see {@link JctFloor})
 */
public record Comparison(Workload workload, ClusterSpec cluster, double offeredLoad, double offeredLoadWithinWindow, double jctFloorSeconds,
        ImmutableList<RunResult> runs,
        ImmutableList<Summary> summaries) {
    public Comparison {
        requireNonNull(workload, "workload is null");
        requireNonNull(cluster, "cluster is null");
        runs = ImmutableList.copyOf(runs);
        summaries = ImmutableList.copyOf(summaries);
    }

    /**
     * @param progress gives the listener for one policy's run, by policy name
     */
    public static Comparison run(Workload workload, ClusterSpec cluster, ImmutableList<PolicySpec> policies, long seed, SimulationOptions options,
            Function<String, ProgressListener> progress) {
        ImmutableList.Builder<RunResult> runs = ImmutableList.builder();
        ImmutableList.Builder<Summary> summaries = ImmutableList.builder();
        for (PolicySpec policy : policies) {
            RunResult run = new Simulation(policy.name(), policy.newInstance(seed), cluster, workload, options, progress.apply(policy.name())).run();
            runs.add(run);
            summaries.add(Summary.of(run));
        }
        return new Comparison(workload, cluster, OfferedLoad.of(workload, cluster.total()), OfferedLoad.withinWindow(workload, cluster.total()),
                JctFloor.seconds(workload), runs.build(), summaries.build());
    }
}
