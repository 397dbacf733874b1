package dev.muster.runtime;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock in UTC that stands still until a test sets or advances it; safe to read from other threads. */
public final class SettableClock extends Clock {
    private final AtomicReference<Instant> now;

    public SettableClock(Instant start) {
        this.now = new AtomicReference<>(requireNonNull(start, "start is null"));
    }

    public void set(Instant instant) {
        now.set(requireNonNull(instant, "instant is null"));
    }

    public void advance(Duration step) {
        requireNonNull(step, "step is null");
        now.updateAndGet(current -> current.plus(step));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a settable clock is in UTC");
    }
}
