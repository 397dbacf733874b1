package dev.muster.sim.metrics;

import dev.muster.engine.model.Resources;
import dev.muster.sim.workload.Workload;
import dev.muster.sim.workload.WorkloadJob;

/**
 * Offered load: the work the jobs bring over what the cluster can do while they arrive,
 * {@code sum(resource * duration) / (capacity * (last arrival - first arrival))}, in GPUs for a
 * workload with GPUs and cores otherwise. About 1 means the cluster is just busy enough on average.
 */
public final class OfferedLoad {
    private OfferedLoad() {}

    public static double of(Workload workload, Resources capacity) {
        boolean gpu = workload.jobs().stream().anyMatch(job -> job.gpuSeconds() > 0);
        double units = gpu ? capacity.get(Resources.GPU) / 1000.0 : capacity.milliCpu() / 1000.0;
        double work = workload.jobs().stream().mapToDouble(job -> gpu ? job.gpuSeconds() : job.cpuSeconds()).sum();
        long first = workload.jobs().stream().mapToLong(WorkloadJob::arrivalMillis).min().orElse(0);
        long last = workload.jobs().stream().mapToLong(WorkloadJob::arrivalMillis).max().orElse(0);
        double window = (last - first) / 1000.0;
        return window <= 0 || units <= 0 ? 0 : work / (units * window);
    }
}
