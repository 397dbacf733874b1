package dev.muster.engine.plugins.shortestfirst;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.FitFailure;
import dev.muster.engine.framework.JobOrder;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NodeFilter;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Orders jobs within a queue by least expected remaining work first, in the spirit of Tiresias' least
 * attained service and of shortest-expected-first: a job's work is its expected remaining run time
 * times its gang's dominant share of the cluster (the largest, over resources, of what the gang
 * requests over the cluster's total), so many short or small jobs are not held behind a few long,
 * wide ones. The expected run time is the {@code muster.dev/duration-estimate} annotation; without
 * one, the median run time of the last finished jobs of the same similarity key in the snapshot's
 * history (the {@code history} argument; a cluster that keeps no history has none); without that,
 * the median of the expected times of the queue's other jobs in the snapshot, else of all jobs; with
 * none at all the plugin has no opinion and creation order decides. A running job's remaining time
 * is its estimate less the time it has run (the service it attained).
 *
 * <p>A job that has waited since creation for longer than the starvation threshold goes ahead of
 * every job that has not, oldest first, and the oldest of them gets a {@link Reservation}: the nodes
 * expected to be free soonest are held for it, and other jobs may be placed there only if they are
 * expected to end before the reservation is due (EASY backfilling), so wide gangs are not starved by a
 * stream of small ones that always fit the gaps first.
 */
public final class ShortestFirstPlugin implements Plugin, JobOrder, NodeFilter {
    public static final String NAME = "shortestfirst";
    /** The PodGroup annotation with the expected run time (see {@link DurationEstimate}). */
    public static final String DURATION_ESTIMATE = DurationEstimate.ANNOTATION;

    private final Map<JobState, Double> work = new HashMap<>();
    private final Map<JobState, Double> expected = new HashMap<>();
    private final Map<JobState, Instant> starvingSince = new HashMap<>();
    private final Instant now;
    private Optional<Reservation> reservation = Optional.empty();

    ShortestFirstPlugin(ShortestFirstArgs args, Session session) {
        this.now = session.now();
        Resources total = session.totalResource();
        Map<JobState, Double> estimates = new HashMap<>();
        Map<QueueName, List<Double>> byQueue = new HashMap<>();
        List<Double> all = new ArrayList<>();
        Duration threshold = args.threshold();
        HistoryEstimates history = new HistoryEstimates(session.snapshot().history(), args.similarity(), args.historyRuns());
        for (JobState job : session.jobs()) {
            Optional<Double> estimate = DurationEstimate.of(job).or(() -> history.of(job));
            if (estimate.isPresent()) {
                estimates.put(job, estimate.get());
                byQueue.computeIfAbsent(job.queue(), queue -> new ArrayList<>()).add(estimate.get());
                all.add(estimate.get());
            }
            if (!threshold.isZero() && !job.job().created().plus(threshold).isAfter(now) && waiting(job)) {
                starvingSince.put(job, job.job().created());
            }
        }
        if (all.isEmpty()) {
            return;
        }
        Map<QueueName, Double> medians = new HashMap<>();
        byQueue.forEach((queue, values) -> medians.put(queue, median(values)));
        double overall = median(all);
        for (JobState job : session.jobs()) {
            double expectedSeconds = estimates.getOrDefault(job, medians.getOrDefault(job.queue(), overall));
            expected.put(job, expectedSeconds);
            double remaining = Math.max(0, expectedSeconds - job.gangRunSeconds(now));
            work.put(job, remaining * dominantShare(job, total));
        }
        starvingSince.entrySet().stream()
                .min(Map.Entry.<JobState, Instant>comparingByValue().thenComparing(entry -> entry.getKey().job().uid()))
                .ifPresent(oldest -> reservation = Reservation.hold(oldest.getKey(), session.nodes(), expected, now));
    }

    /** The nodes held for the gang that has waited longest past the threshold, if any. */
    public Optional<Reservation> reservation() {
        return reservation;
    }

    @Override
    public Optional<FitFailure> filter(TaskState task, NodeState node) {
        if (reservation.isEmpty() || mayUseHeldNodes(task) || !reservation.get().nodes().contains(node.name())) {
            return Optional.empty();
        }
        Reservation held = reservation.get();
        return Optional.of(FitFailure.resolvable("node " + node.name() + " is held for " + held.job().id()
                + ", waiting since " + held.job().job().created() + ", until " + held.due()
                + ", and this job is not expected to end before"));
    }

    @Override
    public Optional<Object> filterKey(TaskState task) {
        return Optional.of(mayUseHeldNodes(task));
    }

    private boolean mayUseHeldNodes(TaskState task) {
        return reservation.isEmpty() || reservation.get().job() == task.job()
                || reservation.get().admits(Optional.ofNullable(expected.get(task.job())), now);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int compareJobs(JobState left, JobState right) {
        Instant leftStarving = starvingSince.get(left);
        Instant rightStarving = starvingSince.get(right);
        if (leftStarving != null || rightStarving != null) {
            if (leftStarving == null) {
                return 1;
            }
            if (rightStarving == null) {
                return -1;
            }
            return leftStarving.compareTo(rightStarving);
        }
        Double leftWork = work.get(left);
        Double rightWork = work.get(right);
        if (leftWork == null || rightWork == null) {
            return 0;
        }
        return Double.compare(leftWork, rightWork);
    }

    /** A job with a pod still to place: one that has not started, or a gang not yet whole. */
    private static boolean waiting(JobState job) {
        return job.count(TaskStatus.PENDING) > 0 && job.readyTaskCount() < job.minMember();
    }

    /** The largest, over the resources the job requests, of its request over the cluster's total. */
    static double dominantShare(JobState job, Resources total) {
        Resources requested = requested(job);
        double share = 0;
        for (String name : requested.requestedNames()) {
            double capacity = total.get(name);
            if (capacity > 0) {
                share = Math.max(share, requested.get(name) / capacity);
            }
        }
        return share;
    }

    /** What the job's pods request together, or its PodGroup's minResources while it has no pod. */
    static Resources requested(JobState job) {
        if (job.tasks().isEmpty()) {
            return job.job().minResources().orElse(Resources.EMPTY);
        }
        Resources requested = Resources.EMPTY;
        for (TaskState task : job.tasks()) {
            requested = requested.add(task.request());
        }
        return requested;
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    /** Builds the plugin from its {@link ShortestFirstArgs}. */
    public static final class Factory implements PluginFactory<ShortestFirstArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<ShortestFirstArgs> argsType() {
            return ShortestFirstArgs.class;
        }

        @Override
        public ShortestFirstArgs defaultArgs() {
            return ShortestFirstArgs.DEFAULTS;
        }

        @Override
        public ShortestFirstPlugin create(ShortestFirstArgs args, Session session) {
            requireNonNull(args, "args is null");
            return new ShortestFirstPlugin(args, session);
        }
    }
}
