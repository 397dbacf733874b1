package dev.muster.runtime.leader;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Which Lease to campaign for, as whom, and how fast.
 *
 * @param identity this replica's name in {@code spec.holderIdentity}; unique per process
 * @param leaseDuration how long a standby waits after the last renewal it saw before taking over
 * @param renewDeadline how long the leader keeps scheduling without a successful renewal; shorter
 *     than {@code leaseDuration}, so the leader stops before anyone may take over
 * @param retryPeriod how often the leader renews and a standby looks at the Lease
 */
public record LeaseConfig(
        String namespace, String name, String identity, Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
    /** kube-scheduler's defaults. */
    public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(15);
    public static final Duration DEFAULT_RENEW_DEADLINE = Duration.ofSeconds(10);
    public static final Duration DEFAULT_RETRY_PERIOD = Duration.ofSeconds(2);

    public LeaseConfig {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        requireNonNull(identity, "identity is null");
        requireNonNull(leaseDuration, "leaseDuration is null");
        requireNonNull(renewDeadline, "renewDeadline is null");
        requireNonNull(retryPeriod, "retryPeriod is null");
        checkArgument(!namespace.isEmpty() && !name.isEmpty() && !identity.isEmpty(), "empty lease namespace, name or identity");
        checkArgument(!retryPeriod.isZero() && !retryPeriod.isNegative(), "retry period must be positive: %s", retryPeriod);
        checkArgument(renewDeadline.compareTo(retryPeriod) > 0, "the renew deadline (%s ms) must be longer than the retry period (%s ms)",
                renewDeadline.toMillis(), retryPeriod.toMillis());
        checkArgument(leaseDuration.compareTo(renewDeadline) > 0,
                "the lease duration (%s ms) must be longer than the renew deadline (%s ms)", leaseDuration.toMillis(),
                renewDeadline.toMillis());
    }

    /** kube-scheduler's timings: a 15 s lease, renewed every 2 s, given up 10 s after the last renewal. */
    public static LeaseConfig withDefaultTimings(String namespace, String name, String identity) {
        return new LeaseConfig(namespace, name, identity, DEFAULT_LEASE_DURATION, DEFAULT_RENEW_DEADLINE, DEFAULT_RETRY_PERIOD);
    }
}
