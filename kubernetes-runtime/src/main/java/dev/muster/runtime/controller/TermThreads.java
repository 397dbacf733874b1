package dev.muster.runtime.controller;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The threads of one controller {@link TermController.Term term}: a pool of workers that process its
 * {@link KeyedWorkQueue}s and one timer for their backoffs, rechecks and resyncs. Made with the term and
 * stopped with it; {@link DaemonThreads daemons}, named after the term.
 */
@ThreadSafe
public final class TermThreads {
    private final ExecutorService workers;
    private final ScheduledExecutorService timer;

    /**
     * Names the workers {@code name-0}, {@code name-1}, ... and the timer {@code name-timer-0}.
     *
     * @param workers how many requests the term processes at the same time
     */
    public TermThreads(String name, int workers) {
        requireNonNull(name, "name is null");
        checkArgument(workers > 0, "workers must be positive: %s", workers);
        this.workers = Executors.newFixedThreadPool(workers, DaemonThreads.named(name));
        this.timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named(name + "-timer"));
    }

    public ExecutorService workers() {
        return workers;
    }

    public ScheduledExecutorService timer() {
        return timer;
    }

    /** Ends both at once, interrupting the requests in progress. Idempotent; never throws. */
    public void stop() {
        workers.shutdownNow();
        timer.shutdownNow();
    }

    /**
     * Ends the timer at once and lets the requests in progress finish, waiting up to {@code grace} for
     * them; an interrupt of the wait stays set. Idempotent; never throws.
     *
     * @return whether every request in progress finished within {@code grace}
     */
    public boolean stop(Duration grace) {
        requireNonNull(grace, "grace is null");
        timer.shutdownNow();
        workers.shutdown();
        try {
            return workers.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
