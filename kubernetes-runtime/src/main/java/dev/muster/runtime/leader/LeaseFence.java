package dev.muster.runtime.leader;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.muster.runtime.binding.WriteFence;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The {@link WriteFence} of a replica that leads on a Lease: open from a successful acquisition or
 * renewal until the renew deadline after the moment that request was sent, closed at once when the
 * lease is lost. It reads the clock rather than the election's state, so a replica whose threads were
 * all paused (SIGSTOP) past its lease finds the fence closed the moment it wakes, before its election
 * has noticed anything: a standby takes over no sooner than a lease duration after it saw the last
 * renewal, which is later than the renew deadline after it was sent.
 */
@ThreadSafe
public final class LeaseFence implements WriteFence {
    private final Duration renewDeadline;
    private final Clock clock;

    @GuardedBy("this")
    private Optional<Instant> openUntil = Optional.empty();

    public LeaseFence(LeaseConfig config, Clock clock) {
        this.renewDeadline = requireNonNull(config, "config is null").renewDeadline();
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** The lease was taken or renewed by a request sent at {@code sentAt}. */
    synchronized void renewed(Instant sentAt) {
        openUntil = Optional.of(sentAt.plus(renewDeadline));
    }

    /** The lease is lost or given up. */
    synchronized void close() {
        openUntil = Optional.empty();
    }

    @Override
    public Optional<Duration> remaining() {
        Optional<Instant> until;
        synchronized (this) {
            until = openUntil;
        }
        return Optional.of(until.map(end -> Duration.between(clock.instant(), end)).orElse(Duration.ZERO));
    }
}
