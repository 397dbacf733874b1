package dev.muster.sim.metrics;

import dev.muster.engine.model.Resources;
import dev.muster.sim.workload.Workload;
import dev.muster.sim.workload.WorkloadJob;

/**
 * Offered load: the work the jobs bring over what the cluster can do while they arrive,
 * {@code sum(resource * duration) / (capacity * (last arrival - first arrival))}, in GPUs for a
 * workload with GPUs and cores otherwise. About 1 means the cluster is just busy enough on average.
 *
 * <p>{@link #withinWindow} counts only the work that falls inside the arrival window, each gang run
 * as early as it could: its job's arrival plus the longest chain of its ancestors' durations (the job's
 * arrival for a job of one gang). A few runs much longer than the window make {@link #of} large while
 * the cluster hardly queues; the part within the window is what competes for the cluster while jobs
 * arrive.
 */
public final class OfferedLoad {
    private OfferedLoad() {}

    public static double of(Workload workload, Resources capacity) {
        boolean gpu = measuresGpus(workload);
        double work = workload.jobs().stream().mapToDouble(job -> gpu ? job.gpuSeconds() : job.cpuSeconds()).sum();
        return perWindow(workload, capacity, gpu, work);
    }

    public static double withinWindow(Workload workload, Resources capacity) {
        boolean gpu = measuresGpus(workload);
        long first = workload.jobs().stream().mapToLong(WorkloadJob::arrivalMillis).min().orElse(0);
        long last = workload.jobs().stream().mapToLong(WorkloadJob::arrivalMillis).max().orElse(0);
        double work = 0;
        for (WorkloadJob job : workload.jobs()) {
            for (EarliestRuns.Run run : EarliestRuns.of(job).values()) {
                double inside = Math.max(0, Math.min(run.end(), last) - Math.max(run.start(), first)) / 1000.0;
                work += inside * (gpu ? run.gang().gpus() : run.gang().total().milliCpu() / 1000.0);
            }
        }
        return perWindow(workload, capacity, gpu, work);
    }

    private static boolean measuresGpus(Workload workload) {
        return workload.jobs().stream().anyMatch(job -> job.gpuSeconds() > 0);
    }

    private static double perWindow(Workload workload, Resources capacity, boolean gpu, double work) {
        double units = gpu ? capacity.get(Resources.GPU) / 1000.0 : capacity.milliCpu() / 1000.0;
        long first = workload.jobs().stream().mapToLong(WorkloadJob::arrivalMillis).min().orElse(0);
        long last = workload.jobs().stream().mapToLong(WorkloadJob::arrivalMillis).max().orElse(0);
        double window = (last - first) / 1000.0;
        return window <= 0 || units <= 0 ? 0 : work / (units * window);
    }
}
