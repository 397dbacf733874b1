package dev.muster.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** The system clock plus an offset a test moves forward, as a process paused for a while finds its clock on waking. */
public final class TestingClock extends Clock {
    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    /** Every reader sees the time jump by {@code jump} at once. */
    public void jump(Duration jump) {
        offset.accumulateAndGet(jump, Duration::plus);
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a testing clock is in UTC");
    }
}
