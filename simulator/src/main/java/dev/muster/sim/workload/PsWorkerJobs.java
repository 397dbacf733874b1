package dev.muster.sim.workload;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.model.Resources;

/**
 * A workload's multi-pod jobs as PS/worker training jobs (TFJobs with PS and Worker replicas): the jobs
 * whose gangs all have 2 or more pods are kept, the others left out (they have no one to talk to); each
 * gang's pods become the workers, and one parameter server per 8 workers (a node's GPUs) is added, so
 * that each PS can share a node with the workers it serves. Queue weights are recomputed over the jobs
 * kept, as {@link PhillyLoader} computes them. The trace does not say how its jobs communicated; the
 * mapping is the experiment's assumption, for the {@code task-topology} plugin's figure.
 */
public final class PsWorkerJobs {
    /** A PS's request: 4 cores and 16 GiB, no GPU (TensorFlow's PS holds variables and applies updates). */
    public static final Resources PARAMETER_SERVER = Resources.of(4000, 16.0 * (1L << 30));
    /** The slowdown of a gang whose every (worker, PS) pair is on different nodes (see {@link ParameterServers}). */
    public static final double CROSS_NODE_SLOWDOWN = 0.5;
    private static final int WORKERS_PER_SERVER = 8;

    private PsWorkerJobs() {}

    /** The workload's multi-pod jobs, with parameter servers added to every gang; the jobs left out count as skipped. */
    public static Workload of(Workload workload) {
        requireNonNull(workload, "workload is null");
        ImmutableList.Builder<WorkloadJob> kept = ImmutableList.builder();
        int leftOut = 0;
        for (WorkloadJob job : workload.jobs()) {
            if (job.gangs().stream().anyMatch(gang -> gang.pods() < 2)) {
                leftOut++;
                continue;
            }
            ImmutableList<GangSpec> gangs = job.gangs().stream()
                    .map(gang -> gang.withParameterServers(new ParameterServers(
                            (gang.pods() + WORKERS_PER_SERVER - 1) / WORKERS_PER_SERVER, PARAMETER_SERVER, CROSS_NODE_SLOWDOWN)))
                    .collect(ImmutableList.toImmutableList());
            kept.add(new WorkloadJob(job.id(), job.queue(), job.arrivalMillis(), gangs, job.graph()));
        }
        ImmutableList<WorkloadJob> jobs = kept.build();
        return new Workload(workload.source(), workload.epoch(), jobs, PhillyLoader.weights(jobs), workload.problems(),
                workload.skippedJobs() + leftOut);
    }
}
