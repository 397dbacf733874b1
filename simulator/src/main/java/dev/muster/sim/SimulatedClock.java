package dev.muster.sim;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The simulation's clock: an epoch plus the simulated milliseconds elapsed, moved forward only by
 * the event loop. The engine reads it through {@link Clock}, as it reads the wall clock in a cluster.
 *
 * <p>Not thread-safe: one simulation runs on one thread.
 */
public final class SimulatedClock extends Clock {
    private final Instant epoch;
    private long elapsedMillis;

    public SimulatedClock(Instant epoch) {
        this.epoch = requireNonNull(epoch, "epoch is null");
    }

    public Instant epoch() {
        return epoch;
    }

    public long elapsedMillis() {
        return elapsedMillis;
    }

    /** Moves the clock to a later point; time never goes back. */
    public void advanceTo(long millis) {
        checkArgument(millis >= elapsedMillis, "time goes back: %s < %s", millis, elapsedMillis);
        elapsedMillis = millis;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the simulated clock is in UTC");
    }

    @Override
    public Instant instant() {
        return epoch.plusMillis(elapsedMillis);
    }

    @Override
    public long millis() {
        return epoch.toEpochMilli() + elapsedMillis;
    }
}
