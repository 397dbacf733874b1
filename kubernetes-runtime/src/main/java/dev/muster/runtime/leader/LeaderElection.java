package dev.muster.runtime.leader;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.muster.runtime.controller.DaemonThreads;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Campaigns for a Lease, as Kubernetes' own components do, so that one replica of several schedules.
 *
 * <p>Every retry period the campaign reads the Lease. A standby takes it when nobody holds it, or when
 * its holder has not renewed it for the lease duration, measured on this replica's clock from the
 * moment it saw the last renewal (so clock skew between replicas does not matter). When that expiry
 * falls between two looks, the standby looks once more at the expiry itself rather than at the next
 * retry, so a dead leader is replaced within the lease duration of the standby's sight of its last
 * renewal, at most a retry period after the renewal (kube-scheduler's elector waits for the next
 * retry: up to a retry period more). The leader renews
 * it; every write carries the version read, so of two replicas racing only one wins (409 for the other).
 * A leader that has not renewed for the renew deadline, shorter than the lease duration, stops leading
 * before any standby may take over; a watchdog on its own thread enforces this even while a request hangs.
 *
 * <p>The {@link Callbacks} run on one thread of their own, in order: a stop always completes before the
 * next start, so two scheduling loops never overlap in this process. After losing the lease the
 * replica campaigns again as a standby.
 *
 * <p>Why our own and not fabric8's {@code LeaderElector} (7.6.1), whose campaign is otherwise the same:
 * fabric8 judges a lease expired by the holder's {@code renewTime} against the standby's clock, so a
 * standby whose clock runs ahead takes a lease its live holder is renewing and two replicas schedule at
 * once; and its elector stops for good once it loses the lease. {@code ElectorChoiceTest} shows both
 * against an API server, beside this class in the same situations, and fails when fabric8 changes.
 */
@ThreadSafe
public final class LeaderElection implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);

    /** What to do on gaining and losing the lease; both may block (e.g. to finish a cycle). */
    public interface Callbacks {
        void startedLeading();

        void stoppedLeading();
    }

    private final Leases leases;
    private final LeaseConfig config;
    private final Clock clock;
    private final Callbacks callbacks;
    private final LeaseFence fence;
    private final ScheduledExecutorService timer;
    private final ExecutorService callbackThread;
    private final Lock looking = new ReentrantLock();

    @GuardedBy("this")
    private boolean running;

    @GuardedBy("this")
    private boolean leading;

    @GuardedBy("this")
    private Instant lastRenewal = Instant.EPOCH;

    @GuardedBy("this")
    private Optional<LeaseRecord> observed = Optional.empty();

    @GuardedBy("this")
    private Instant observedAt = Instant.EPOCH;

    /** The expiry for which an extra look is scheduled, so one expiry gets one look. */
    @GuardedBy("this")
    private Optional<Instant> lookScheduledAt = Optional.empty();

    public LeaderElection(KubernetesClient client, LeaseConfig config, Clock clock, Callbacks callbacks) {
        this(client, config, clock, callbacks, new LeaseFence(config, clock));
    }

    /** With the fence that this election opens on each renewal and closes when the lease is lost, for the writers to consult. */
    public LeaderElection(KubernetesClient client, LeaseConfig config, Clock clock, Callbacks callbacks, LeaseFence fence) {
        requireNonNull(client, "client is null");
        this.fence = requireNonNull(fence, "fence is null");
        this.config = requireNonNull(config, "config is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.callbacks = requireNonNull(callbacks, "callbacks is null");
        this.leases = new Leases(client, config.namespace(), config.name());
        this.timer = Executors.newScheduledThreadPool(2, DaemonThreads.named("muster-leader-election"));
        this.callbackThread = Executors.newSingleThreadExecutor(DaemonThreads.single("muster-leader-callbacks"));
    }

    /** Starts campaigning; returns at once. */
    public synchronized void start() {
        running = true;
        long retry = config.retryPeriod().toMillis();
        timer.scheduleWithFixedDelay(this::campaign, 0, retry, TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(this::enforceRenewDeadline, retry, Math.max(1, retry / 2), TimeUnit.MILLISECONDS);
        log.info("leader election started lease={} identity={} leaseDurationMs={} renewDeadlineMs={} retryPeriodMs={}",
                leases.describe(), config.identity(), config.leaseDuration().toMillis(), config.renewDeadline().toMillis(), retry);
    }

    public synchronized boolean isLeading() {
        return leading;
    }

    /** Stops campaigning, stops leading (the callback completes first), then releases the lease so a standby takes over at once. */
    @Override
    public void close() throws InterruptedException {
        stop(true);
    }

    /**
     * Stops campaigning and leading without releasing the lease, as a replica that dies would: a standby
     * takes over only once the lease expires.
     */
    public void abandon() throws InterruptedException {
        stop(false);
    }

    private void stop(boolean release) throws InterruptedException {
        boolean wasLeading;
        synchronized (this) {
            running = false;
            wasLeading = leading;
            leading = false;
        }
        fence.close();
        timer.shutdownNow();
        timer.awaitTermination(1, TimeUnit.MINUTES);
        if (wasLeading) {
            callbackThread.execute(callbacks::stoppedLeading);
        }
        callbackThread.shutdown();
        callbackThread.awaitTermination(2, TimeUnit.MINUTES);
        if (release && wasLeading) {
            release();
        }
        log.info("leader election stopped lease={} identity={} released={}", leases.describe(), config.identity(),
                release && wasLeading);
    }

    /** One look at the lease: take it, renew it, or note who holds it. A look while another is under way is skipped. */
    private void campaign() {
        // not waited for: a look blocked behind a hanging request would hold the timer's other thread,
        // which enforces the renew deadline
        if (!looking.tryLock()) {
            return;
        }
        try {
            lookAtLease();
        } finally {
            looking.unlock();
        }
    }

    /** The extra look at an expiry: it waits, up to a retry period, for a regular look under way to end. */
    private void lookAtExpiry() {
        try {
            if (!looking.tryLock(config.retryPeriod().toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            lookAtLease();
        } finally {
            looking.unlock();
        }
    }

    private void lookAtLease() {
        try {
            Instant now = clock.instant();
            Optional<LeaseRecord> current = leases.get();
            if (current.isEmpty()) {
                LeaseRecord mine = new LeaseRecord(Optional.of(config.identity()), leaseSeconds(), now, now, 0, "");
                if (leases.create(mine)) {
                    gained(now, 0);
                }
                return;
            }
            LeaseRecord record = current.get();
            boolean ours = record.heldBy(config.identity());
            if (!ours && record.holder().isPresent() && !expired(record, now)) {
                lost("the lease is held by " + record.holder().get());
                scheduleLookAtExpiry(record, now);
                return;
            }
            int transitions = ours ? record.transitions() : record.transitions() + 1;
            LeaseRecord next = new LeaseRecord(Optional.of(config.identity()), leaseSeconds(), ours ? record.acquired() : now, now,
                    transitions, record.resourceVersion());
            if (leases.update(record, next)) {
                if (ours && isLeading()) {
                    renewed(now);
                } else {
                    gained(now, transitions);
                }
            } else {
                log.debug("lease update conflicted lease={} identity={}", leases.describe(), config.identity());
            }
        } catch (KubernetesClientException e) {
            // the renew deadline bounds how long a leader goes on without the API server
            log.debug("cannot read or write the lease lease={} identity={}: {}", leases.describe(), config.identity(), e.getMessage());
        } catch (RuntimeException e) {
            log.error("leader election failed lease={} identity={}; retrying", leases.describe(), config.identity(), e);
        }
    }

    /** Expiry on this replica's clock: a lease duration after this replica first saw the current renewal. */
    private synchronized boolean expired(LeaseRecord record, Instant now) {
        if (observed.isEmpty() || !observed.get().sameRenewal(record)) {
            observed = Optional.of(record);
            observedAt = now;
        }
        return !now.isBefore(expiry(record));
    }

    @GuardedBy("this")
    private Instant expiry(LeaseRecord record) {
        Duration duration = !record.leaseDuration().isZero() && !record.leaseDuration().isNegative() ? record.leaseDuration() : config.leaseDuration();
        return observedAt.plus(duration);
    }

    /** Schedules one more look at the moment the lease expires when the next regular look would come later. */
    private synchronized void scheduleLookAtExpiry(LeaseRecord record, Instant now) {
        Instant expiry = expiry(record);
        Duration until = Duration.between(now, expiry);
        if (!running || until.compareTo(config.retryPeriod()) >= 0 || lookScheduledAt.equals(Optional.of(expiry))) {
            return;
        }
        lookScheduledAt = Optional.of(expiry);
        try {
            // one millisecond late rather than early: a look before the expiry finds the lease still held
            timer.schedule(this::lookAtExpiry, until.toMillis() + 1, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // stopping: no more looks
        }
    }

    private void enforceRenewDeadline() {
        Duration silent;
        synchronized (this) {
            if (!leading) {
                return;
            }
            silent = Duration.between(lastRenewal, clock.instant());
        }
        if (silent.compareTo(config.renewDeadline()) > 0) {
            lost("no renewal for " + silent.toMillis() + " ms");
        }
    }

    private synchronized void renewed(Instant now) {
        lastRenewal = now;
        fence.renewed(now);
    }

    private synchronized void gained(Instant now, int transitions) {
        lastRenewal = now;
        if (leading || !running) {
            return;
        }
        fence.renewed(now);
        leading = true;
        log.info("leading lease={} identity={} transitions={}", leases.describe(), config.identity(), transitions);
        callbackThread.execute(callbacks::startedLeading);
    }

    private synchronized void lost(String reason) {
        if (!leading) {
            return;
        }
        leading = false;
        fence.close();
        log.warn("stopped leading lease={} identity={} reason=\"{}\"", leases.describe(), config.identity(), reason);
        callbackThread.execute(callbacks::stoppedLeading);
    }

    private void release() {
        try {
            Optional<LeaseRecord> current = leases.get();
            if (current.isPresent() && current.get().heldBy(config.identity())) {
                Instant now = clock.instant();
                LeaseRecord released = new LeaseRecord(Optional.empty(), Duration.ofSeconds(1), now, now,
                        current.get().transitions(), current.get().resourceVersion());
                leases.update(current.get(), released);
            }
        } catch (KubernetesClientException e) {
            log.warn("cannot release the lease lease={} identity={}; a standby takes over once it expires: {}", leases.describe(),
                    config.identity(), e.getMessage());
        }
    }

    private Duration leaseSeconds() {
        // Lease.spec.leaseDurationSeconds is whole seconds
        long seconds = (config.leaseDuration().toMillis() + 999) / 1000;
        return Duration.ofSeconds(seconds);
    }
}
