package dev.muster.runtime.binding;

import java.time.Duration;
import java.util.Optional;

/**
 * How long this replica may still write to the API server: while it holds a Lease, until its renew
 * deadline runs out (measured from the last renewal it sent, on its own clock), so a replica that was
 * paused past its lease, or whose renewals fail, writes nothing once a standby may have taken over.
 * Every request of the writers asks it first and is bounded by what it answers.
 */
@FunctionalInterface
public interface WriteFence {
    /** No leader election: writes are never fenced. */
    WriteFence NONE = Optional::empty;

    /**
     * The time left for writes: empty when writes are not fenced at all, zero or negative when they must
     * not be sent.
     */
    Optional<Duration> remaining();

    /** Whether a write may be sent now. */
    default boolean open() {
        return remaining().map(left -> !left.isNegative() && !left.isZero()).orElse(true);
    }
}
