package dev.muster.runtime.metrics;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import com.google.inject.Inject;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.PodGroupPhase;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import dev.muster.runtime.binding.BindResult;
import dev.muster.runtime.scheduler.CycleReport;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The scheduler's metrics, fed one {@link CycleReport} per cycle on the scheduling thread and read by
 * scrapes on other threads, through the official Prometheus client. Counters and histograms accumulate;
 * the queue and pending gauges are those of the latest cycle.
 *
 * <p>Pending PodGroups are counted by reason, from what the cycle decided: {@code Invalid} (the objects
 * fail validation), {@code NotEnqueued} (phase Pending: the queue or cluster cannot admit the gang's
 * minimum yet) and {@code NotEnoughResources} (phase Inqueue: admitted, but the gang does not fit, the
 * reason of the PodGroup's {@code Unschedulable} condition).
 *
 * <p>Evictions are counted by the victim's queue and the action that chose them, and per job: each time
 * a job loses pods in a cycle, {@code muster_job_evictions} observes how many times it has been evicted
 * so far ({@link JobEvictions}), and {@code muster_job_evictions_max} shows the largest of those counts
 * among live jobs: the figure that stays small when preempt and reclaim do not cycle.
 */
@ThreadSafe
public final class SchedulerMetrics implements Consumer<CycleReport> {
    static final double[] LATENCY_BOUNDS = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600};
    static final double[] CYCLE_BOUNDS = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    static final double[] JOB_EVICTION_BOUNDS = {1, 2, 3, 5, 10, 20, 50, 100};

    private final Counter cycles;
    private final Counter bound;
    private final Counter bindFailures;
    private final Counter evicted;
    private final Histogram latency;
    private final Histogram cycleDuration;
    private final Histogram actionDuration;
    private final Histogram jobEvictions;
    @GuardedBy("this")
    private final JobEvictions evictionsByJob = new JobEvictions();
    /** What the gauges show: the latest cycle's, replaced whole so that a scrape never sees half of one. */
    private final AtomicReference<Gauges> gauges = new AtomicReference<>(Gauges.NONE);

    /** A queue's resources after a cycle; {@code deserved} is empty when no plugin computes a share. */
    record QueueGauges(Resources allocated, Resources deserved) {}

    private record Gauges(Instant lastCycle, ImmutableSortedMap<QueueName, QueueGauges> queues, ImmutableSortedMap<String, Integer> pending,
            int maxJobEvictions) {
        static final Gauges NONE = new Gauges(Instant.EPOCH, ImmutableSortedMap.of(), ImmutableSortedMap.copyOf(
                Map.of("Invalid", 0, "NotEnqueued", 0, "NotEnoughResources", 0)), 0);
    }

    /** Registers the scheduler's families in {@code registry}, with today's names (the client adds {@code _total} to counters). */
    @Inject
    public SchedulerMetrics(PrometheusRegistry registry) {
        requireNonNull(registry, "registry is null");
        this.cycles = Counter.builder().name("muster_cycles").help("Scheduling cycles run.").register(registry);
        GaugeWithCallback.builder().name("muster_last_cycle_timestamp_seconds").help("When the latest cycle finished (0: none yet).")
                .callback(callback -> callback.call(gauges.get().lastCycle().toEpochMilli() / 1000.0)).register(registry);
        this.bound = Counter.builder().name("muster_pods_bound").help("Pods bound to a node; rate() gives pods bound per second.")
                .register(registry);
        this.bindFailures = Counter.builder().name("muster_bind_failures").help("Binds that did not take effect, by outcome.")
                .labelNames("result").register(registry);
        for (BindResult.Status status : BindResult.Status.values()) {
            if (status != BindResult.Status.BOUND) {
                bindFailures.initLabelValues(result(status));
            }
        }
        this.evicted = Counter.builder().name("muster_pods_evicted")
                .help("Pods evicted, by the victim's queue and the action that evicted them (preempt, reclaim).")
                .labelNames("queue", "action").register(registry);
        this.jobEvictions = Histogram.builder().name("muster_job_evictions")
                .help("Times a job has been evicted so far (cycles in which it lost pods), observed each time it is.")
                .classicOnly().classicUpperBounds(JOB_EVICTION_BOUNDS).register(registry);
        GaugeWithCallback.builder().name("muster_job_evictions_max").help("The most times any live job has been evicted.")
                .callback(callback -> callback.call(gauges.get().maxJobEvictions())).register(registry);
        this.latency = Histogram.builder().name("muster_pod_scheduling_latency_seconds").help("Time from a pod's creation to its bind.")
                .classicOnly().classicUpperBounds(LATENCY_BOUNDS).register(registry);
        this.cycleDuration = Histogram.builder().name("muster_cycle_duration_seconds")
                .help("Duration of a cycle: snapshot, session and writes.").classicOnly().classicUpperBounds(CYCLE_BOUNDS).register(registry);
        this.actionDuration = Histogram.builder().name("muster_action_duration_seconds").help("Duration of each action in a cycle.")
                .labelNames("action").classicOnly().classicUpperBounds(CYCLE_BOUNDS).register(registry);
        GaugeWithCallback.builder().name("muster_queue_allocated")
                .help("Resources held by a queue's pods (cpu in cores, memory in bytes, others in units).").labelNames("queue", "resource")
                .callback(callback -> gauges.get().queues().forEach((queue, values) -> resources(callback, queue, values.allocated())))
                .register(registry);
        GaugeWithCallback.builder().name("muster_queue_deserved")
                .help("A queue's deserved share, as proportion or capacity computes it (same units).").labelNames("queue", "resource")
                .callback(callback -> gauges.get().queues().forEach((queue, values) -> resources(callback, queue, values.deserved())))
                .register(registry);
        GaugeWithCallback.builder().name("muster_pending_podgroups").help("PodGroups waiting to be scheduled, by reason.").labelNames("reason")
                .callback(callback -> gauges.get().pending().forEach((reason, count) -> callback.call(count, reason))).register(registry);
    }

    @Override
    public synchronized void accept(CycleReport report) {
        requireNonNull(report, "report is null");
        Map<TaskId, Task> tasks = new HashMap<>();
        for (Job job : report.cluster().jobs().values()) {
            job.tasks().forEach(task -> tasks.put(task.id(), task));
        }
        for (BindResult bind : report.written().binds()) {
            Task task = tasks.get(bind.task());
            if (bind.status() == BindResult.Status.BOUND) {
                bound.inc();
                if (task != null) {
                    latency.observe(seconds(Duration.between(task.created(), report.finished())));
                }
            } else {
                bindFailures.labelValues(result(bind.status())).inc();
            }
        }
        for (SessionResult.Eviction eviction : report.written().evictions()) {
            evicted.labelValues(eviction.queue().value(), eviction.action()).inc();
        }
        evictionsByJob.record(report.cluster(), report.written().evictions()).forEach(jobEvictions::observe);
        report.actions().forEach((name, duration) -> actionDuration.labelValues(name).observe(seconds(duration)));
        cycleDuration.observe(seconds(report.duration()));
        cycles.inc();
        gauges.set(new Gauges(report.finished(), queueGauges(report), pending(report), evictionsByJob.max()));
    }

    private static void resources(GaugeWithCallback.Callback callback, QueueName queue, Resources resources) {
        for (String resource : resources.names()) {
            callback.call(resource.equals(Resources.MEMORY) ? resources.memory() : resources.get(resource) / 1000, queue.value(), resource);
        }
    }

    private static String result(BindResult.Status status) {
        return status.name().toLowerCase(Locale.ROOT);
    }

    private static ImmutableSortedMap<QueueName, QueueGauges> queueGauges(CycleReport report) {
        Map<QueueName, Resources> allocated = new TreeMap<>();
        report.cluster().queues().keySet().forEach(queue -> allocated.put(queue, Resources.EMPTY));
        for (Job job : report.cluster().jobs().values()) {
            for (Task task : job.tasks()) {
                if (task.status().isAllocated() || report.decisions().binds().containsKey(task.id())) {
                    allocated.merge(job.queue(), task.request(), Resources::add);
                }
            }
        }
        ImmutableSortedMap.Builder<QueueName, QueueGauges> gauges = ImmutableSortedMap.naturalOrder();
        allocated.forEach((queue, resources) ->
                gauges.put(queue, new QueueGauges(resources, report.deserved().getOrDefault(queue, Resources.EMPTY))));
        return gauges.buildOrThrow();
    }

    private static ImmutableSortedMap<String, Integer> pending(CycleReport report) {
        Map<String, Integer> counts = new TreeMap<>(Map.of("Invalid", 0, "NotEnqueued", 0, "NotEnoughResources", 0));
        for (Map.Entry<JobId, SessionResult.JobOutcome> entry : report.decisions().jobs().entrySet()) {
            SessionResult.JobOutcome outcome = entry.getValue();
            if (outcome.ready() || (outcome.phase() != PodGroupPhase.PENDING && outcome.phase() != PodGroupPhase.INQUEUE)) {
                continue;
            }
            Job job = report.cluster().jobs().get(entry.getKey());
            String reason;
            if (job != null && !job.problems().isEmpty()) {
                reason = "Invalid";
            } else {
                reason = outcome.phase() == PodGroupPhase.PENDING ? "NotEnqueued" : "NotEnoughResources";
            }
            counts.merge(reason, 1, Integer::sum);
        }
        return ImmutableSortedMap.copyOf(counts);
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
