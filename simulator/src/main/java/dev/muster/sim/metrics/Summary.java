package dev.muster.sim.metrics;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The numbers of one policy's run.
 *
 * <ul>
 *   <li>JCT (job completion time) is completion minus arrival, over the jobs that completed;
 *       percentiles are nearest-rank ({@code ceil(p * n)}-th smallest);</li>
 *   <li>queueing is, per gang, the time from submission until all its pods first ran together
 *       (for a gang that only ever got part of its pods, it never ends and is not averaged);</li>
 *   <li>makespan is the time from the first arrival to the last completion (to the end of the run
 *       when jobs were left unfinished);</li>
 *   <li>allocation is the time-averaged fraction of the cluster's GPUs (cpu) held by pods, over the makespan;</li>
 *   <li>a job is stuck when one of its gangs was partly placed for longer than the threshold, or
 *       still was when the run ended; wasted GPU-seconds are those held by partly placed gangs;</li>
 *   <li>Jain's index is over queues with a deserved share: {@code x_q} = share-seconds held over
 *       share-seconds deserved, {@code (sum x)^2 / (n * sum x^2)}, 1 when every queue got the same
 *       fraction of what it deserved;</li>
 *   <li>the p99 JCT of the largest jobs is over the tenth of completed jobs that need the most GPUs
 *       (ties by id), whom shortest-first orders must not starve;</li>
 *   <li>evictions count the runs of gangs that an eviction interrupted (a preemption or reclaim), in
 *       all, and per job over every job of the run (0 for one never interrupted): its p99, nearest rank,
 *       and the job interrupted most often, the measures that a policy does not cycle;</li>
 *   <li>admission latency is queueing read for serving: its p95 over the gangs that ran whole; a gang
 *       that never had all its pods placed by the end of the run is unplaced;</li>
 *   <li>role pairs are every two-role gang's {@link RolePairs} when it first ran, added up.</li>
 * </ul>
 */
public record Summary(
        int jobs,
        int completed,
        int unschedulable,
        double avgJctSeconds,
        double p50JctSeconds,
        double p95JctSeconds,
        double p99JctSeconds,
        double makespanSeconds,
        double avgQueueingSeconds,
        double gpuAllocation,
        double cpuAllocation,
        int stuckJobs,
        double wastedGpuSeconds,
        double jainFairness,
        long cycles,
        boolean livelocked,
        double p99LargestJctSeconds,
        int evictions,
        int p99EvictionsPerJob,
        int maxEvictionsPerJob,
        double p95QueueingSeconds,
        int unplacedGangs,
        RolePairs rolePairs) {

    public static Summary of(RunResult run) {
        double[] jct = run.jobs().stream().filter(JobRecord::completed).mapToDouble(JobRecord::jctSeconds).sorted().toArray();
        long lastCompletion = run.jobs().stream().mapToLong(JobRecord::completedMillis).max().orElse(0);
        boolean allDone = jct.length == run.jobs().size();
        double makespan = (allDone ? lastCompletion : run.endMillis()) / 1000.0;
        double[] queueingSeconds = run.gangs().stream().filter(gang -> gang.firstRunMillis() >= 0)
                .mapToDouble(gang -> (gang.firstRunMillis() - gang.submittedMillis()) / 1000.0).toArray();
        double queueing = Arrays.stream(queueingSeconds).average().orElse(0);
        Arrays.sort(queueingSeconds);
        int unplaced = (int) run.gangs().stream().filter(gang -> gang.firstRunMillis() < 0).count();
        long stuckJobs = run.gangs().stream().filter(GangRecord::stuck).map(GangRecord::job).distinct().count();
        double wasted = run.gangs().stream().mapToDouble(GangRecord::wastedGpuSeconds).sum();
        double[] evictionsPerJob = evictionsPerJob(run);
        return new Summary(run.jobs().size() + run.unschedulable().size(), jct.length, run.unschedulable().size(),
                Arrays.stream(jct).average().orElse(0), percentile(jct, 0.50), percentile(jct, 0.95), percentile(jct, 0.99), makespan, queueing,
                run.timeline().averageGpu(), run.timeline().averageCpu(), (int) stuckJobs, wasted, jain(run.timeline()), run.cycles(),
                run.livelocked(), p99OfLargest(run), run.gangs().stream().mapToInt(GangRecord::restarts).sum(), (int) percentile(evictionsPerJob, 0.99),
                (int) percentile(evictionsPerJob, 1), percentile(queueingSeconds, 0.95), unplaced, RolePairs.total(run.gangs()));
    }

    /** The p99 JCT over the tenth of completed jobs with the most GPUs (at least one job). */
    static double p99OfLargest(RunResult run) {
        List<JobRecord> completed = run.jobs().stream().filter(JobRecord::completed)
                .sorted(Comparator.comparingDouble(JobRecord::gpus).reversed().thenComparing(JobRecord::id)).toList();
        int count = (int) Math.ceil(completed.size() / 10.0);
        double[] jct = completed.stream().limit(count).mapToDouble(JobRecord::jctSeconds).sorted().toArray();
        return percentile(jct, 0.99);
    }

    /** Each job's interrupted runs, over its gangs, sorted; a job whose runs were never interrupted counts 0. */
    static double[] evictionsPerJob(RunResult run) {
        Map<String, Integer> byJob = new HashMap<>();
        run.jobs().forEach(job -> byJob.put(job.id(), 0));
        for (GangRecord gang : run.gangs()) {
            byJob.merge(gang.job(), gang.restarts(), Integer::sum);
        }
        return byJob.values().stream().mapToDouble(Integer::doubleValue).sorted().toArray();
    }

    /** Nearest rank: the {@code ceil(p * n)}-th smallest of sorted values; 0 for none. */
    public static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    /** Jain's index of each queue's held over deserved share-seconds; 1 when no queue deserved anything. */
    public static double jain(Timeline timeline) {
        double sum = 0;
        double squares = 0;
        int n = 0;
        for (int q = 0; q < timeline.queues().size(); q++) {
            double deserved = timeline.deservedIntegral(q);
            if (deserved <= 0) {
                continue;
            }
            double x = timeline.shareIntegral(q) / deserved;
            sum += x;
            squares += x * x;
            n++;
        }
        return n == 0 || squares == 0 ? 1 : sum * sum / (n * squares);
    }
}
