package dev.muster.bridge.kubeflow;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples the pods of some training jobs every 50 ms while a test runs, and keeps what "all or nothing"
 * forbids: the longest time a job was seen with some of its pods bound while others wait unbound (a gang
 * is bound by one Binding per pod, so a sample may fall between two of them, for milliseconds; pods the
 * operator deletes once the job is done do not count), and whether two jobs
 * were ever seen with unfinished pods on nodes at the same time.
 */
final class GangWatch implements AutoCloseable {
    private final TrainingJobs jobs;
    private final List<String> names;
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    private final Map<String, Long> halfBoundSince = new HashMap<>();
    private long longestHalfBoundMillis;
    private boolean overlapped;

    GangWatch(TrainingJobs jobs, List<String> names) {
        this.jobs = jobs;
        this.names = List.copyOf(names);
        sampler.scheduleWithFixedDelay(this::sample, 0, 50, TimeUnit.MILLISECONDS);
    }

    private synchronized void sample() {
        long now = System.nanoTime();
        int running = 0;
        for (String job : names) {
            List<Pod> pods = jobs.pods(job);
            long bound = pods.stream().filter(TrainingJobs::bound).count();
            long waiting = pods.stream().filter(pod -> !TrainingJobs.bound(pod) && pod.getMetadata().getDeletionTimestamp() == null).count();
            boolean active = pods.stream().anyMatch(pod -> TrainingJobs.bound(pod) && "Running".equals(pod.getStatus().getPhase()));
            running += active ? 1 : 0;
            if (bound > 0 && waiting > 0) {
                long since = halfBoundSince.computeIfAbsent(job, key -> now);
                longestHalfBoundMillis = Math.max(longestHalfBoundMillis, (now - since) / 1_000_000);
            } else {
                halfBoundSince.remove(job);
            }
        }
        overlapped |= running > 1;
    }

    synchronized Duration longestHalfBound() {
        return Duration.ofMillis(longestHalfBoundMillis);
    }

    synchronized boolean overlapped() {
        return overlapped;
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
