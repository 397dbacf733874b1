package dev.muster.runtime.leader;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A Lease's {@code spec} as the election reads and writes it, with the {@code resourceVersion} it was
 * read at, so that a write fails (409) when anyone wrote in between.
 *
 * @param holder {@code holderIdentity}; empty when nobody holds the lease (never taken, or released)
 */
record LeaseRecord(
        Optional<String> holder,
        Duration leaseDuration,
        Instant acquired,
        Instant renewed,
        int transitions,
        String resourceVersion) {
    LeaseRecord {
        requireNonNull(holder, "holder is null");
        requireNonNull(leaseDuration, "leaseDuration is null");
        requireNonNull(acquired, "acquired is null");
        requireNonNull(renewed, "renewed is null");
        requireNonNull(resourceVersion, "resourceVersion is null");
    }

    boolean heldBy(String identity) {
        return holder.isPresent() && holder.get().equals(identity);
    }

    /** Whether both describe the same renewal: a standby measures expiry from the moment it saw a change. */
    boolean sameRenewal(LeaseRecord other) {
        return holder.equals(other.holder) && renewed.equals(other.renewed) && transitions == other.transitions;
    }
}
