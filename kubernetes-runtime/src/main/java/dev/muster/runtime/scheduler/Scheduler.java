package dev.muster.runtime.scheduler;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.muster.engine.cache.CacheSnapshot;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.cache.ManifestProblem;
import dev.muster.engine.framework.Action;
import dev.muster.engine.framework.CommittedBinds;
import dev.muster.engine.framework.DeservedShare;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.ClusterSnapshot;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.runtime.binding.DecisionWriter;
import dev.muster.runtime.controller.DaemonThreads;
import dev.muster.runtime.history.CycleHistory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduling loop: every period, on one thread, snapshot the {@link ClusterCache}, run a
 * {@link Session}, and write its decisions. A cycle that throws is logged and the next one runs; one
 * bad object never stops the loop (its problem is on its job).
 *
 * <p>No cycle runs until the cache has every kind's first list ({@link ClusterCache#unsyncedKinds()}):
 * a cycle on a partial cache would see gangs short of pods that exist and say so on their PodGroups.
 *
 * <p>Each gang's binds are sent as the session commits it, while the session goes on deciding the
 * next gangs; evictions and statuses follow when the session ends (see {@link DecisionWriter#begin}).
 *
 * <p>{@link #start()} and {@link #stop()} may be called repeatedly, so a leader elector can start the
 * loop when it gains the Lease and stop it when it loses it (a cycle running then sends no bind
 * committed after the stop, and no eviction or status); each cycle's {@link CycleReport}, with the time each action took, goes to the
 * listener given at construction, where metrics read it.
 */
@ThreadSafe
public final class Scheduler {
    private static final Logger log = LoggerFactory.getLogger(Scheduler.class);

    private final ClusterCache cache;
    private final SessionConfig config;
    private final DecisionWriter writer;
    private final Duration period;
    private final Clock clock;
    private final Consumer<CycleReport> listener;
    private final CycleHistory history;

    @GuardedBy("this")
    private ScheduledExecutorService loop;

    /** Set by {@link #stop()}: a cycle of the loop that is still deciding then writes nothing. */
    private volatile boolean stopping;

    /** Problems already logged, so each is logged once while it lasts. Only the scheduling thread uses it. */
    private final Set<String> loggedProblems = new HashSet<>();

    public Scheduler(
            ClusterCache cache,
            SessionConfig config,
            DecisionWriter writer,
            Duration period,
            Clock clock,
            Consumer<CycleReport> listener) {
        this(cache, config, writer, period, clock, listener, CycleHistory.NONE);
    }

    /** A loop whose sessions see the job history {@code history} keeps from the snapshots it is shown. */
    public Scheduler(
            ClusterCache cache,
            SessionConfig config,
            DecisionWriter writer,
            Duration period,
            Clock clock,
            Consumer<CycleReport> listener,
            CycleHistory history) {
        this.history = requireNonNull(history, "history is null");
        this.cache = requireNonNull(cache, "cache is null");
        this.config = requireNonNull(config, "config is null");
        this.writer = requireNonNull(writer, "writer is null");
        this.period = requireNonNull(period, "period is null");
        checkArgument(!period.isNegative() && !period.isZero(), "period must be positive: %s", period);
        this.clock = requireNonNull(clock, "clock is null");
        this.listener = requireNonNull(listener, "listener is null");
    }

    /** Starts cycling on a thread of its own, the first cycle at once. */
    public synchronized void start() {
        checkState(loop == null, "the scheduler is running already");
        stopping = false;
        loop = Executors.newSingleThreadScheduledExecutor(DaemonThreads.single("muster-scheduler"));
        loop.scheduleWithFixedDelay(this::cycleSafely, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        log.info("scheduler started periodMs={}", period.toMillis());
    }

    /**
     * Stops the loop and waits for it: a cycle still deciding sends no bind it commits from now on and no
     * eviction or status, one already writing completes the writes it has begun, and binds already sent
     * end, so the caller knows nothing is written after this returns.
     */
    public void stop() throws InterruptedException {
        ScheduledExecutorService running;
        synchronized (this) {
            running = loop;
            loop = null;
            stopping = true;
        }
        if (running == null) {
            return;
        }
        running.shutdown();
        if (!running.awaitTermination(1, TimeUnit.MINUTES)) {
            running.shutdownNow();
        }
        log.info("scheduler stopped");
    }

    /**
     * Runs one cycle on the calling thread; the loop calls it, and so can tests and simulations.
     *
     * @throws IllegalStateException when the cache has not received every kind's first list yet
     */
    public CycleReport runCycle() throws InterruptedException {
        return cycle(false).orElseThrow(() -> new IllegalStateException(
                "no cycle before the informers' first lists have reached the cache; waiting for " + cache.unsyncedKinds()));
    }

    /**
     * A cycle; none while the cache is not synced, and one of the loop's writes nothing more once
     * {@link #stop()} has been called, so a replica that loses its lease stops writing at once rather than
     * after the cycle (binds already sent complete).
     */
    private Optional<CycleReport> cycle(boolean ofLoop) throws InterruptedException {
        List<String> unsynced = cache.unsyncedKinds();
        if (!unsynced.isEmpty()) {
            log.debug("cycle skipped: waiting for the first list of {}", unsynced);
            return Optional.empty();
        }
        Instant started = clock.instant();
        CacheSnapshot snapshot = cache.snapshot();
        logNewProblems(snapshot);
        DecisionWriter.Cycle writes = writer.begin(snapshot);
        // binds go out as the session commits them, unless stop() was called since the cycle began
        CommittedBinds committed = (task, node) -> {
            if (!(ofLoop && stopping)) {
                writes.committed(task, node);
            }
        };
        SessionResult result;
        Map<String, Duration> actions = new LinkedHashMap<>();
        ImmutableMap<QueueName, Resources> deserved;
        ClusterSnapshot cluster;
        try {
            cluster = snapshot.cluster().withHistory(history.observe(snapshot.cluster()));
            // the actions run here rather than in Session.run so that each can be timed
            Session session = Session.open(cluster, config, clock, committed);
            for (Action action : config.actions()) {
                Instant actionStarted = clock.instant();
                action.execute(session);
                actions.merge(action.name(), Duration.between(actionStarted, clock.instant()), Duration::plus);
            }
            deserved = deserved(session);
            result = session.close();
        } catch (RuntimeException e) {
            // what was sent still ends before the next cycle's snapshot
            writes.abandon();
            throw e;
        }
        if (ofLoop && stopping) {
            writes.abandon();
            log.info("cycle discarded: the scheduler stopped while it ran jobs={} binds={} (binds committed before the stop were sent)",
                    result.jobs().size(), result.binds().size());
            return Optional.empty();
        }
        DecisionWriter.Written written = writes.finish(result);
        CycleReport report = new CycleReport(started, Duration.between(started, clock.instant()), result, written,
                cluster, ImmutableMap.copyOf(actions), deserved);
        if (log.isDebugEnabled()) {
            log.debug("cycle done jobs={} binds={} bound={} evicted={} statuses={} durationMs={} actions={}",
                    result.jobs().size(), result.binds().size(), written.bound(), written.evicted(), written.statuses(),
                    report.duration().toMillis(), actionMillis(actions));
        }
        listener.accept(report);
        return Optional.of(report);
    }

    /** The first plugin that computes a queue's deserved share answers for it, in tier order. */
    private static ImmutableMap<QueueName, Resources> deserved(Session session) {
        List<DeservedShare> shares = session.plugins().all(DeservedShare.class);
        ImmutableMap.Builder<QueueName, Resources> deserved = ImmutableMap.builder();
        for (QueueName queue : session.queues().keySet()) {
            for (DeservedShare share : shares) {
                Optional<Resources> found = share.deserved(queue);
                if (found.isPresent()) {
                    deserved.put(queue, found.get());
                    break;
                }
            }
        }
        return deserved.buildOrThrow();
    }

    private static String actionMillis(Map<String, Duration> actions) {
        StringJoiner text = new StringJoiner(",");
        actions.forEach((name, duration) -> text.add(name + ":" + duration.toMillis()));
        return text.toString();
    }

    private void cycleSafely() {
        try {
            cycle(true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // a bug or an unexpected answer: the next cycle starts from a fresh snapshot
            log.error("scheduling cycle failed", e);
        }
    }

    private void logNewProblems(CacheSnapshot snapshot) {
        Set<String> current = new HashSet<>();
        for (ManifestProblem problem : snapshot.problems()) {
            String text = problem.kind() + " " + problem.name() + ": " + (problem.field().isEmpty() ? "" : problem.field() + ": ")
                    + problem.message();
            current.add(text);
            if (!loggedProblems.contains(text)) {
                log.warn("invalid object kind={} name={} field={} problem=\"{}\"", problem.kind(), problem.name(),
                        problem.field().isEmpty() ? "-" : problem.field(), problem.message());
            }
        }
        loggedProblems.retainAll(current);
        loggedProblems.addAll(current);
    }
}
