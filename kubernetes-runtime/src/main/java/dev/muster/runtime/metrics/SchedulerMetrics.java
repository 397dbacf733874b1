package dev.muster.runtime.metrics;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
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
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The scheduler's metrics, fed one {@link CycleReport} per cycle on the scheduling thread and read by
 * scrapes on other threads. Counters and histograms accumulate; the queue and pending gauges are those
 * of the latest cycle.
 *
 * <p>Pending PodGroups are counted by reason, from what the cycle decided: {@code Invalid} (the objects
 * fail validation), {@code NotEnqueued} (phase Pending: the queue or cluster cannot admit the gang's
 * minimum yet) and {@code NotEnoughResources} (phase Inqueue: admitted, but the gang does not fit, the
 * reason of the PodGroup's {@code Unschedulable} condition).
 */
@ThreadSafe
public final class SchedulerMetrics implements Consumer<CycleReport> {
    static final double[] LATENCY_BOUNDS = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600};
    static final double[] CYCLE_BOUNDS = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

    private final Histogram latency = new Histogram(LATENCY_BOUNDS);
    private final Histogram cycles = new Histogram(CYCLE_BOUNDS);

    @GuardedBy("this")
    private final Map<String, Histogram> actions = new TreeMap<>();

    @GuardedBy("this")
    private final Map<BindResult.Status, Long> binds = new EnumMap<>(BindResult.Status.class);

    @GuardedBy("this")
    private long evicted;

    @GuardedBy("this")
    private Instant lastCycle = Instant.EPOCH;

    @GuardedBy("this")
    private ImmutableSortedMap<QueueName, QueueGauges> queues = ImmutableSortedMap.of();

    @GuardedBy("this")
    private ImmutableSortedMap<String, Integer> pending = ImmutableSortedMap.of();

    /** A queue's resources after a cycle; {@code deserved} is empty when no plugin computes a share. */
    record QueueGauges(Resources allocated, Resources deserved) {}

    @Override
    public void accept(CycleReport report) {
        requireNonNull(report, "report is null");
        Map<TaskId, Task> tasks = new HashMap<>();
        for (Job job : report.cluster().jobs().values()) {
            job.tasks().forEach(task -> tasks.put(task.id(), task));
        }
        for (BindResult bind : report.written().binds()) {
            Task task = tasks.get(bind.task());
            if (bind.status() == BindResult.Status.BOUND && task != null) {
                latency.observe(seconds(Duration.between(task.created(), report.finished())));
            }
        }
        cycles.observe(seconds(report.duration()));
        ImmutableSortedMap<QueueName, QueueGauges> queueGauges = queueGauges(report);
        ImmutableSortedMap<String, Integer> pendingGauges = pending(report);
        synchronized (this) {
            report.actions().forEach((name, duration) ->
                    actions.computeIfAbsent(name, key -> new Histogram(CYCLE_BOUNDS)).observe(seconds(duration)));
            for (BindResult bind : report.written().binds()) {
                binds.merge(bind.status(), 1L, Long::sum);
            }
            evicted += report.written().evicted();
            lastCycle = report.finished();
            queues = queueGauges;
            pending = pendingGauges;
        }
    }

    /** Appends every family to a scrape. */
    public synchronized void writeTo(PrometheusText text) {
        text.family("muster_cycles_total", PrometheusText.Type.COUNTER, "Scheduling cycles run.")
                .sample("muster_cycles_total", cycles.count());
        text.family("muster_last_cycle_timestamp_seconds", PrometheusText.Type.GAUGE, "When the latest cycle finished (0: none yet).")
                .sample("muster_last_cycle_timestamp_seconds", lastCycle.toEpochMilli() / 1000.0);
        text.family("muster_pods_bound_total", PrometheusText.Type.COUNTER, "Pods bound to a node; rate() gives pods bound per second.")
                .sample("muster_pods_bound_total", binds.getOrDefault(BindResult.Status.BOUND, 0L));
        text.family("muster_bind_failures_total", PrometheusText.Type.COUNTER, "Binds that did not take effect, by outcome.");
        for (BindResult.Status status : BindResult.Status.values()) {
            if (status != BindResult.Status.BOUND) {
                text.sample("muster_bind_failures_total", Map.of("result", status.name().toLowerCase(Locale.ROOT)),
                        binds.getOrDefault(status, 0L));
            }
        }
        text.family("muster_pods_evicted_total", PrometheusText.Type.COUNTER, "Pods evicted by preempt and reclaim.")
                .sample("muster_pods_evicted_total", evicted);
        text.family("muster_pod_scheduling_latency_seconds", PrometheusText.Type.HISTOGRAM,
                "Time from a pod's creation to its bind.");
        latency.write(text, "muster_pod_scheduling_latency_seconds", ImmutableMap.of());
        text.family("muster_cycle_duration_seconds", PrometheusText.Type.HISTOGRAM,
                "Duration of a cycle: snapshot, session and writes.");
        cycles.write(text, "muster_cycle_duration_seconds", ImmutableMap.of());
        text.family("muster_action_duration_seconds", PrometheusText.Type.HISTOGRAM, "Duration of each action in a cycle.");
        actions.forEach((name, histogram) -> histogram.write(text, "muster_action_duration_seconds", ImmutableMap.of("action", name)));
        writeQueues(text);
        text.family("muster_pending_podgroups", PrometheusText.Type.GAUGE, "PodGroups waiting to be scheduled, by reason.");
        pending.forEach((reason, count) -> text.sample("muster_pending_podgroups", Map.of("reason", reason), count));
    }

    @GuardedBy("this")
    private void writeQueues(PrometheusText text) {
        text.family("muster_queue_allocated", PrometheusText.Type.GAUGE,
                "Resources held by a queue's pods (cpu in cores, memory in bytes, others in units).");
        queues.forEach((queue, gauges) -> writeResources(text, "muster_queue_allocated", queue, gauges.allocated()));
        text.family("muster_queue_deserved", PrometheusText.Type.GAUGE,
                "A queue's deserved share, as proportion or capacity computes it (same units).");
        queues.forEach((queue, gauges) -> writeResources(text, "muster_queue_deserved", queue, gauges.deserved()));
    }

    private static void writeResources(PrometheusText text, String name, QueueName queue, Resources resources) {
        for (String resource : resources.names()) {
            ImmutableMap<String, String> labels = ImmutableMap.of("queue", queue.value(), "resource", resource);
            text.sample(name, labels, resource.equals(Resources.MEMORY) ? resources.memory() : resources.get(resource) / 1000);
        }
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
