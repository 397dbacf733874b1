package dev.muster.runtime.controller;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Requests per object, processed one at a time per object and in arrival order (Volcano's per-job
 * queues), different objects in parallel on the workers. A request equal to the last one waiting for
 * the same object is dropped. A request whose processing throws is logged with the object's key and
 * tried again after an exponential backoff; the other objects go on.
 */
@ThreadSafe
public final class KeyedWorkQueue<K, R> {
    private static final Logger log = LoggerFactory.getLogger(KeyedWorkQueue.class);

    /** Processes one request for one object; called on a worker thread, never twice at once for the same key. */
    @FunctionalInterface
    public interface Worker<K, R> {
        void process(K key, R request);
    }

    private final String name;
    private final Worker<K, R> worker;
    private final ExecutorService workers;
    private final ScheduledExecutorService timer;
    private final Duration firstBackoff;
    private final Duration maxBackoff;

    @GuardedBy("this")
    private final Map<K, Deque<R>> waiting = new HashMap<>();
    /** Keys a worker is processing or about to process. */
    @GuardedBy("this")
    private final Set<K> active = new HashSet<>();
    @GuardedBy("this")
    private final Map<K, Integer> failures = new HashMap<>();
    @GuardedBy("this")
    private boolean stopped;

    public KeyedWorkQueue(String name, Worker<K, R> worker, ExecutorService workers, ScheduledExecutorService timer, Duration firstBackoff,
            Duration maxBackoff) {
        this.name = requireNonNull(name, "name is null");
        this.worker = requireNonNull(worker, "worker is null");
        this.workers = requireNonNull(workers, "workers is null");
        this.timer = requireNonNull(timer, "timer is null");
        checkArgument(!firstBackoff.isNegative() && !firstBackoff.isZero(), "firstBackoff must be positive: %s", firstBackoff);
        this.firstBackoff = firstBackoff;
        this.maxBackoff = requireNonNull(maxBackoff, "maxBackoff is null");
    }

    /** Queues a request for the object; a no-op once stopped. */
    public void add(K key, R request) {
        requireNonNull(key, "key is null");
        requireNonNull(request, "request is null");
        synchronized (this) {
            if (stopped) {
                return;
            }
            Deque<R> requests = waiting.computeIfAbsent(key, ignored -> new ArrayDeque<>());
            if (request.equals(requests.peekLast())) {
                return;
            }
            requests.add(request);
            if (!active.add(key)) {
                return;
            }
        }
        submit(key);
    }

    /** Queues the request after {@code delay}; the answer cancels it. Once stopped, nothing is scheduled. */
    public Future<?> addAfter(K key, R request, Duration delay) {
        try {
            return timer.schedule(() -> add(key, request), Math.max(0, delay.toMillis()), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.completedFuture(null);
        }
    }

    /** Drops everything waiting; requests in progress finish. */
    public synchronized void stop() {
        stopped = true;
        waiting.clear();
    }

    /** Forgets an object that is gone: its waiting requests and its failure count. */
    public synchronized void forget(K key) {
        waiting.remove(key);
        failures.remove(key);
    }

    private void submit(K key) {
        try {
            workers.execute(() -> processOne(key));
        } catch (RejectedExecutionException e) {
            synchronized (this) {
                active.remove(key);
            }
        }
    }

    private void processOne(K key) {
        R request;
        synchronized (this) {
            Deque<R> requests = waiting.get(key);
            request = requests == null ? null : requests.poll();
            if (request == null) {
                waiting.remove(key);
                active.remove(key);
                return;
            }
        }
        try {
            worker.process(key, request);
            synchronized (this) {
                failures.remove(key);
            }
        } catch (RuntimeException e) {
            int attempt;
            synchronized (this) {
                attempt = failures.merge(key, 1, Integer::sum);
            }
            Duration backoff = backoff(attempt);
            log.warn("{} {}: failed (attempt {}), trying again in {} ms: {}", name, key, attempt, backoff.toMillis(), e.toString());
            log.debug("{} {}: failure", name, key, e);
            addAfter(key, request, backoff);
        }
        boolean more;
        synchronized (this) {
            Deque<R> requests = waiting.get(key);
            more = requests != null && !requests.isEmpty() && !stopped;
            if (!more) {
                waiting.remove(key);
                active.remove(key);
            }
        }
        if (more) {
            submit(key);
        }
    }

    private Duration backoff(int attempt) {
        Duration backoff = firstBackoff.multipliedBy(1L << Math.min(attempt - 1, 20));
        return backoff.compareTo(maxBackoff) > 0 ? maxBackoff : backoff;
    }
}
