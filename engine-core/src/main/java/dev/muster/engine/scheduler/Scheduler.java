package dev.muster.engine.scheduler;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.muster.engine.binding.DecisionWriter;
import dev.muster.engine.cache.CacheSnapshot;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.cache.ManifestProblem;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.SessionConfig;
import dev.muster.engine.framework.SessionResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
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
 * <p>{@link #start()} and {@link #stop()} may be called repeatedly, so a leader elector can start the
 * loop when it gains the Lease and stop it when it loses it; each cycle's {@link CycleReport} goes to
 * the listener given at construction, where metrics can read it.
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

    @GuardedBy("this")
    private ScheduledExecutorService loop;

    /** Problems already logged, so each is logged once while it lasts. Only the scheduling thread uses it. */
    private final Set<String> loggedProblems = new HashSet<>();

    public Scheduler(
            ClusterCache cache,
            SessionConfig config,
            DecisionWriter writer,
            Duration period,
            Clock clock,
            Consumer<CycleReport> listener) {
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
        loop = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "muster-scheduler");
            thread.setDaemon(true);
            return thread;
        });
        loop.scheduleWithFixedDelay(this::cycleSafely, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        log.info("scheduler started, a cycle every {} ms", period.toMillis());
    }

    /** Stops after the cycle in progress, if any, has written its decisions. */
    public void stop() throws InterruptedException {
        ScheduledExecutorService running;
        synchronized (this) {
            running = loop;
            loop = null;
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

    /** Runs one cycle on the calling thread; the loop calls it, and so can tests and simulations. */
    public CycleReport runCycle() throws InterruptedException {
        Instant started = clock.instant();
        CacheSnapshot snapshot = cache.snapshot();
        logNewProblems(snapshot);
        SessionResult result = Session.run(snapshot.cluster(), config, clock);
        DecisionWriter.Written written = writer.write(snapshot, result);
        CycleReport report = new CycleReport(started, Duration.between(started, clock.instant()), result, written);
        log.debug("cycle: {} jobs, {} binds ({} bound), {} evicted, {} statuses written in {} ms",
                result.jobs().size(), result.binds().size(), written.bound(), written.evicted(), written.statuses(),
                report.duration().toMillis());
        listener.accept(report);
        return report;
    }

    private void cycleSafely() {
        try {
            runCycle();
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
                log.warn("{}", text);
            }
        }
        loggedProblems.retainAll(current);
        loggedProblems.addAll(current);
    }
}
